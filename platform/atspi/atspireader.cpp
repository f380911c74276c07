// Reading one libatspi object into an AccessibleNode: role, name, states, extents in root coordinates,
// value or text, key binding, labelled-by. Each call is bounded by atspi_set_timeout().

#include "platform/atspi/atspireader.h"

#include <algorithm>
#include <atspi/atspi.h>
#include <iterator>

namespace ciu::platform::atspi {
namespace {

constexpr int kMaxTextChars = 2000; // text read for a value (a document is not copied whole)

QString fromUtf8(gchar* text)
{
    if (!text)
        return {};
    QString result = QString::fromUtf8(text);
    g_free(text);
    return result;
}

// Roles whose text content is their value (what a user reads or typed), not their label.
bool textIsValue(const QString& role)
{
    // Constant data, never destroyed: the AT-SPI thread may still be reading while the process exits.
    static constexpr QLatin1String roles[] = {QLatin1String("text"),          QLatin1String("entry"),
                                              QLatin1String("spin button"),   QLatin1String("paragraph"),
                                              QLatin1String("document text"), QLatin1String("terminal"),
                                              QLatin1String("editbar"),       QLatin1String("combo box")};
    return std::any_of(std::begin(roles), std::end(roles), [&role](QLatin1String r) { return role == r; });
}

// Roles whose text content is their label when the name is empty (static text).
bool textIsLabel(const QString& role)
{
    return role == QLatin1String("label") || role == QLatin1String("static") ||
           role == QLatin1String("heading") || role == QLatin1String("caption");
}

// Roles a user acts on: only these get a key binding read (an extra call each).
bool isActionable(const QString& role)
{
    static constexpr QLatin1String roles[] = {
        QLatin1String("push button"),     QLatin1String("toggle button"),
        QLatin1String("check box"),       QLatin1String("radio button"),
        QLatin1String("menu item"),       QLatin1String("check menu item"),
        QLatin1String("radio menu item"), QLatin1String("menu"),
        QLatin1String("page tab"),        QLatin1String("link"),
        QLatin1String("combo box"),       QLatin1String("button")};
    return std::any_of(std::begin(roles), std::end(roles), [&role](QLatin1String r) { return role == r; });
}

// Text that is short by nature: a label's, or a field of one line.
bool isShortText(const AccessibleNode& node)
{
    return textIsLabel(node.role) || node.hasState(QStringLiteral("single-line")) ||
           node.role == QLatin1String("entry") || node.role == QLatin1String("spin button") ||
           node.role == QLatin1String("combo box");
}

} // namespace

QString AtspiReader::refOf(AtspiAccessible* object)
{
    auto* o = ATSPI_OBJECT(object);
    const char* bus = o->app ? o->app->bus_name : nullptr;
    return QString::fromUtf8(bus ? bus : "") + QLatin1Char(':') + QString::fromUtf8(o->path ? o->path : "");
}

void AtspiReader::take(GError* error, const QElapsedTimer& started, ReadStatus& status)
{
    if (!error)
        return;
    status.ok = false;
    const QString message = QString::fromUtf8(error->message ? error->message : "");
    // A call that took (about) the whole timeout, or D-Bus's "no reply", is a busy application.
    if (started.elapsed() >= m_timeoutMs * 9 / 10 || message.contains(QLatin1String("NoReply")) ||
        message.contains(QLatin1String("did not receive a reply"), Qt::CaseInsensitive)) {
        status.timedOut = true;
        ++m_timeouts;
    } else if (message.contains(QLatin1String("UnknownObject")) ||
               message.contains(QLatin1String("UnknownMethod")) ||
               message.contains(QLatin1String("ServiceUnknown")) ||
               message.contains(QLatin1String("does not exist"), Qt::CaseInsensitive)) {
        status.defunct = true;
    }
    g_error_free(error);
}

QString AtspiReader::roleName(AtspiAccessible* object, ReadStatus& status)
{
    m_connections.own(object);
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    const AtspiRole role = atspi_accessible_get_role(object, &error);
    take(error, started, status);
    if (!status.ok)
        return {};
    return fromUtf8(atspi_role_get_name(role));
}

QString AtspiReader::nameOf(AtspiAccessible* object, ReadStatus& status)
{
    m_connections.own(object);
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    QString name = fromUtf8(atspi_accessible_get_name(object, &error));
    take(error, started, status);
    return name;
}

qint64 AtspiReader::processId(AtspiAccessible* object, ReadStatus& status)
{
    m_connections.own(object);
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    const guint pid = atspi_accessible_get_process_id(object, &error);
    take(error, started, status);
    return error || pid == 0 ? -1 : qint64(pid);
}

ReadStatus AtspiReader::readStates(AtspiAccessible* object, QStringList& states)
{
    m_connections.own(object);
    ReadStatus status;
    states.clear();
    QElapsedTimer started;
    started.start();
    AtspiStateSet* set = atspi_accessible_get_state_set(object);
    if (!set) {
        status.ok = false;
        return status;
    }
    GArray* values = atspi_state_set_get_states(set);
    auto* enumClass = static_cast<GEnumClass*>(g_type_class_ref(ATSPI_TYPE_STATE_TYPE));
    for (guint i = 0; values && i < values->len; ++i) {
        const GEnumValue* v = g_enum_get_value(enumClass, g_array_index(values, AtspiStateType, i));
        if (v)
            states << QString::fromUtf8(v->value_nick);
    }
    g_type_class_unref(enumClass);
    if (values)
        g_array_free(values, TRUE);
    g_object_unref(set);
    if (states.contains(QLatin1String("defunct")))
        status.defunct = true;
    // libatspi reports no error here: an empty set after (about) the whole timeout is a busy application.
    if (states.isEmpty() && started.elapsed() >= m_timeoutMs * 9 / 10) {
        status.timedOut = true;
        status.ok = false;
        ++m_timeouts;
    }
    return status;
}

int AtspiReader::childCount(AtspiAccessible* object, ReadStatus& status)
{
    m_connections.own(object);
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    const int count = atspi_accessible_get_child_count(object, &error);
    take(error, started, status);
    return error ? 0 : qMax(0, count);
}

AtspiAccessible* AtspiReader::childAt(AtspiAccessible* object, int index, ReadStatus& status)
{
    m_connections.own(object);
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    AtspiAccessible* child = atspi_accessible_get_child_at_index(object, index, &error);
    take(error, started, status);
    return child;
}

AtspiAccessible* AtspiReader::parentOf(AtspiAccessible* object, ReadStatus& status)
{
    m_connections.own(object);
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    AtspiAccessible* parent = atspi_accessible_get_parent(object, &error);
    take(error, started, status);
    return parent;
}

QRect AtspiReader::extents(AtspiAccessible* object, ReadStatus& status)
{
    m_connections.own(object);
    AtspiComponent* component = atspi_accessible_get_component_iface(object);
    if (!component)
        return {};
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    AtspiRect* rect = atspi_component_get_extents(component, ATSPI_COORD_TYPE_SCREEN, &error);
    take(error, started, status);
    g_object_unref(component);
    if (!rect)
        return {};
    QRect result;
    // Toolkits report (-1,-1,-1,-1) or (0,0,0,0) for objects without a place on screen.
    if (rect->width > 0 && rect->height > 0)
        result = QRect(rect->x, rect->y, rect->width, rect->height);
    g_free(rect);
    return result;
}

int AtspiReader::characterCount(AtspiAccessible* object, ReadStatus& status)
{
    m_connections.own(object);
    AtspiText* text = atspi_accessible_get_text_iface(object);
    if (!text)
        return -1;
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    const gint count = atspi_text_get_character_count(text, &error);
    const bool failed = error != nullptr;
    take(error, started, status);
    g_object_unref(text);
    return failed || count < 0 ? -1 : int(count);
}

QString AtspiReader::value(AtspiAccessible* object, const AccessibleNode& node, ReadStatus& status)
{
    m_connections.own(object);
    if (node.role == QLatin1String("password text"))
        return {}; // never read a secret
    if (AtspiValue* v = atspi_accessible_get_value_iface(object)) {
        GError* error = nullptr;
        QElapsedTimer started;
        started.start();
        const double current = atspi_value_get_current_value(v, &error);
        take(error, started, status);
        g_object_unref(v);
        if (!error)
            return QString::number(current, 'g', 10);
    }
    if (!textIsValue(node.role) && !(textIsLabel(node.role) && node.name.isEmpty()))
        return {};
    AtspiText* text = atspi_accessible_get_text_iface(object);
    if (!text)
        return {};
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    QString result;
    if (isShortText(node)) {
        // One call: a label's or a one-line field's text is short (-1: to the end, as Orca asks it).
        result = fromUtf8(atspi_text_get_text(text, 0, -1, &error));
        take(error, started, status);
        result.truncate(kMaxTextChars);
    } else {
        // A document may be long: its length first, then at most kMaxTextChars of it.
        const int count = atspi_text_get_character_count(text, &error);
        take(error, started, status);
        if (!error && count > 0 && !status.timedOut) {
            started.restart();
            result = fromUtf8(atspi_text_get_text(text, 0, qMin(count, kMaxTextChars), &error));
            take(error, started, status);
        }
    }
    g_object_unref(text);
    return result;
}

QString AtspiReader::keyBinding(AtspiAccessible* object, ReadStatus& status)
{
    m_connections.own(object);
    AtspiAction* action = atspi_accessible_get_action_iface(object);
    if (!action)
        return {};
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    // One call: the first action's binding. An object without actions answers with an error (or an
    // empty string), which only means "no key binding".
    QString binding = fromUtf8(atspi_action_get_key_binding(action, 0, &error));
    if (error) {
        ReadStatus optional;
        take(error, started, optional);
        status.timedOut = status.timedOut || optional.timedOut;
        binding.clear();
    }
    g_object_unref(action);
    return binding;
}

QString AtspiReader::labelledBy(AtspiAccessible* object, ReadStatus& status)
{
    m_connections.own(object);
    GError* error = nullptr;
    QElapsedTimer started;
    started.start();
    GArray* relations = atspi_accessible_get_relation_set(object, &error);
    take(error, started, status);
    if (!relations)
        return {};
    QString label;
    for (guint i = 0; i < relations->len; ++i) {
        AtspiRelation* relation = g_array_index(relations, AtspiRelation*, i);
        if (label.isEmpty() && atspi_relation_get_relation_type(relation) == ATSPI_RELATION_LABELLED_BY &&
            atspi_relation_get_n_targets(relation) > 0) {
            AtspiAccessible* target = atspi_relation_get_target(relation, 0);
            if (target) {
                label = nameOf(target, status);
                if (label.isEmpty())
                    label = value(target, AccessibleNode{.role = QStringLiteral("label")}, status);
                g_object_unref(target);
            }
        }
        g_object_unref(relation);
    }
    g_array_free(relations, TRUE);
    return label;
}

ReadStatus AtspiReader::readNode(AtspiAccessible* object, AccessibleNode& node)
{
    ReadStatus status = readStates(object, node.states);
    if (status.defunct)
        return status;
    node.ref = refOf(object);
    node.role = roleName(object, status);
    if (status.timedOut || !status.ok)
        return status;
    node.name = nameOf(object, status);
    const bool showing = node.hasState(QStringLiteral("showing"));
    node.bounds = showing && !status.timedOut ? extents(object, status) : QRect();
    if (!showing || status.timedOut)
        return status;
    node.value = value(object, node, status);
    if (!status.timedOut && node.role == QLatin1String("password text"))
        node.characterCount = characterCount(object, status);
    if (!status.timedOut && isActionable(node.role))
        node.keyBinding = keyBinding(object, status);
    if (!status.timedOut && node.name.isEmpty() && !textIsLabel(node.role) &&
        node.role != QLatin1String("filler") && node.role != QLatin1String("panel"))
        node.labelledBy = labelledBy(object, status);
    // A failed optional call (no text, no action) does not make the node unreadable.
    status.ok = !status.timedOut && !status.defunct;
    return status;
}

} // namespace ciu::platform::atspi
