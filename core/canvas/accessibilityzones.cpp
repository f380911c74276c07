// Zones from the accessibility tree (role → type, states → state, label from name / labelled-by / text,
// only what a person sees) and the fusion of tree zones with vision zones.

#include "core/canvas/accessibilityzones.h"

#include "core/canvas/canvaslog.h"
#include "core/canvas/zoneidentity.h"
#include "core/model/geometry.h"

#include <QSet>

#include <algorithm>

namespace ciu::canvas {
namespace {

constexpr double kTreeConfidence = 0.9;  // a tree zone vision has not seen (yet)
constexpr int kMaxLabelChars = 200;      // a static text's label: a paragraph is not a label
constexpr double kMinVisibleShare = 0.5; // a node covered more than this by other windows is hidden

bool isEditableTextRole(const QString& role)
{
    return role == QLatin1String("entry") || role == QLatin1String("password text") ||
           role == QLatin1String("spin button") || role == QLatin1String("editbar") ||
           role == QLatin1String("terminal");
}

QStringList eventsFor(ZoneType type, const platform::AccessibleNode& node)
{
    const QString& role = node.role;
    switch (type) {
    case ZoneType::Button:
    case ZoneType::Link:
    case ZoneType::Tab:
        return {QStringLiteral("click")};
    case ZoneType::CheckBox:
        return {QStringLiteral("click"), QStringLiteral("toggle")};
    case ZoneType::TextField:
        return {QStringLiteral("click"), QStringLiteral("type")};
    case ZoneType::Dropdown:
        return {QStringLiteral("click"), QStringLiteral("opens_menu")};
    case ZoneType::MenuItem:
        if (role == QLatin1String("menu") || node.childCount > 0) // a submenu under it
            return {QStringLiteral("click"), QStringLiteral("opens_menu")};
        return {QStringLiteral("click")};
    case ZoneType::Slider:
        return {QStringLiteral("drag"), QStringLiteral("click"), QStringLiteral("scroll")};
    case ZoneType::ScrollArea:
        return {QStringLiteral("scroll"), QStringLiteral("drag")};
    case ZoneType::Static:
        return {};
    }
    return {};
}

// The managed window showing an accessible top-level window: the best overlap among the windows of the
// same process (a window of another process, or of another display on the same bus, is never it).
// nullopt: no managed window (a popup menu or tooltip, or a window of another display).
std::optional<int> matchWindow(const platform::AccessibleNode& window,
                               const QList<platform::WindowInfo>& windows)
{
    std::optional<int> best;
    double bestScore = 0;
    for (int i = 0; i < windows.size(); ++i) {
        const platform::WindowInfo& w = windows.at(i);
        if (window.pid > 0 && w.pid > 0 && w.pid != window.pid)
            continue;
        const double iou = intersectionOverUnion(window.bounds, w.geometry);
        if (iou >= 0.5 && iou > bestScore) {
            bestScore = iou;
            best = i;
        }
    }
    return best;
}

// Letters and digits only, lower case: "Inset:" and "inset" are the same words.
QString textKey(const QString& label)
{
    QString key;
    key.reserve(label.size());
    for (const QChar c : label) {
        if (c.isLetterOrNumber())
            key += c.toLower();
    }
    return key;
}

// The static tree zone showing the same text as the vision zone `v`, one box mostly inside the other; -1 if
// none.
int sameTextIndex(const QList<Zone>& treeZones, const Zone& v)
{
    const QString key = textKey(v.label);
    if (key.isEmpty())
        return -1;
    for (int i = 0; i < treeZones.size(); ++i) {
        const Zone& t = treeZones.at(i);
        if (t.type == ZoneType::Static && t.source == ZoneSource::Accessibility && textKey(t.label) == key &&
            (shareInside(v.bounds, t.bounds) >= 0.6 || shareInside(t.bounds, v.bounds) >= 0.6))
            return i;
    }
    return -1;
}

} // namespace

std::optional<ZoneType> zoneTypeForRole(const QString& role)
{
    static const QHash<QString, ZoneType> types{
        {QStringLiteral("push button"), ZoneType::Button},
        {QStringLiteral("button"), ZoneType::Button},
        {QStringLiteral("toggle button"), ZoneType::Button},
        {QStringLiteral("list item"), ZoneType::Button},
        {QStringLiteral("tree item"), ZoneType::Button},
        {QStringLiteral("table cell"), ZoneType::Button},
        {QStringLiteral("icon"), ZoneType::Button},
        {QStringLiteral("check box"), ZoneType::CheckBox},
        {QStringLiteral("radio button"), ZoneType::CheckBox},
        {QStringLiteral("switch"), ZoneType::CheckBox},
        {QStringLiteral("entry"), ZoneType::TextField},
        {QStringLiteral("password text"), ZoneType::TextField},
        {QStringLiteral("spin button"), ZoneType::TextField},
        {QStringLiteral("editbar"), ZoneType::TextField},
        {QStringLiteral("terminal"), ZoneType::TextField},
        {QStringLiteral("text"), ZoneType::TextField}, // editable; read-only text is static (below)
        {QStringLiteral("combo box"), ZoneType::Dropdown},
        {QStringLiteral("menu item"), ZoneType::MenuItem},
        {QStringLiteral("check menu item"), ZoneType::MenuItem},
        {QStringLiteral("radio menu item"), ZoneType::MenuItem},
        {QStringLiteral("menu"), ZoneType::MenuItem},
        {QStringLiteral("page tab"), ZoneType::Tab},
        {QStringLiteral("slider"), ZoneType::Slider},
        {QStringLiteral("dial"), ZoneType::Slider},
        {QStringLiteral("scroll bar"), ZoneType::ScrollArea},
        {QStringLiteral("scroll pane"), ZoneType::ScrollArea},
        {QStringLiteral("list"), ZoneType::ScrollArea}, // where a list is scrolled; its items are zones too
        {QStringLiteral("list box"), ZoneType::ScrollArea},
        {QStringLiteral("tree"), ZoneType::ScrollArea},
        {QStringLiteral("table"), ZoneType::ScrollArea},
        {QStringLiteral("tree table"), ZoneType::ScrollArea},
        {QStringLiteral("link"), ZoneType::Link},
        {QStringLiteral("label"), ZoneType::Static},
        {QStringLiteral("static"), ZoneType::Static},
        {QStringLiteral("heading"), ZoneType::Static},
        {QStringLiteral("caption"), ZoneType::Static},
        {QStringLiteral("paragraph"), ZoneType::Static},
        {QStringLiteral("status bar"), ZoneType::Static},
        // A table's column header names its list ("select Cherry in Fruit").
        {QStringLiteral("table column header"), ZoneType::Static},
        {QStringLiteral("column header"), ZoneType::Static},
    };
    const auto it = types.constFind(role);
    if (it == types.cend())
        return std::nullopt;
    return *it;
}

ZoneState zoneStateFor(const QStringList& states, const QString& role)
{
    ZoneState state;
    const auto has = [&states](const char* name) { return states.contains(QLatin1String(name)); };
    state |= has("enabled") || has("sensitive") ? ZoneStateFlag::Enabled : ZoneStateFlag::Disabled;
    if (has("focused"))
        state |= ZoneStateFlag::Focused;
    if (has("pressed"))
        state |= ZoneStateFlag::Pressed;
    if (has("selected"))
        state |= ZoneStateFlag::Selected;
    if (has("editable"))
        state |= ZoneStateFlag::Editable;
    const bool checkable = has("checkable") || role == QLatin1String("check box") ||
                           role == QLatin1String("radio button") || role == QLatin1String("switch") ||
                           role == QLatin1String("check menu item") ||
                           role == QLatin1String("radio menu item");
    if (has("checked"))
        state |= ZoneStateFlag::Checked;
    else if (checkable)
        state |= ZoneStateFlag::Unchecked;
    if (has("expanded"))
        state |= ZoneStateFlag::Expanded;
    else if (has("expandable") || role == QLatin1String("combo box"))
        state |= ZoneStateFlag::Collapsed;
    return state;
}

AccessibilityZones zonesFromAccessibility(const platform::AccessibilitySnapshot& snapshot,
                                          const AccessibilityScene& scene)
{
    AccessibilityZones result;
    QRegion excluded;
    for (const QRect& r : scene.excluded)
        excluded += r;
    // Unmanaged windows (popups) of a program on this display lie above every managed window; other
    // unmatched windows belong to another display sharing the bus and are skipped.
    QSet<qint64> pidsHere;
    for (const platform::WindowInfo& w : scene.windows)
        pidsHere.insert(w.pid);
    QRegion popups;
    QList<QRect> popupBounds;
    QHash<QString, std::optional<int>> matched;
    QSet<QString> foreign;
    for (const platform::AccessibleNode& n : snapshot.nodes) {
        if (n.depth != 0)
            continue;
        const std::optional<int> index = matchWindow(n, scene.windows);
        matched.insert(n.ref, index);
        qCDebug(lcCanvas).noquote()
            << "accessible window" << n.ref << n.name << "pid" << n.pid << n.bounds
            << (index ? QStringLiteral("shown by window 0x%1").arg(scene.windows.at(*index).id, 0, 16)
                      : QStringLiteral("matches no managed window"));
        if (index || scene.windows.isEmpty()) // no window list (no window manager): no stacking known
            continue;
        if (n.pid > 0 && pidsHere.contains(n.pid) && n.pid != scene.ownPid) {
            popups += n.bounds;
            popupBounds << n.bounds;
        } else
            foreign.insert(n.ref);
    }

    QHash<QString, QString> zoneIdOfRef; // refs that became zones
    QHash<QString, QString> parentOfRef;
    QHash<QString, const platform::AccessibleNode*> nodeOfRef;
    ZoneIdAllocator ids; // stable ids; duplicates numbered in tree order
    QString windowRef;
    QRegion windowRegion;
    QRect windowBounds;
    const platform::WindowInfo* windowInfo = nullptr;
    bool skipWindow = false;
    // What a popup shows, reported under the widget that opened it (GTK puts a combo box's open list under
    // the combo, in the dialog's tree, while the popup window's own node is empty): those nodes are on the
    // popup, above their window, not covered by it.
    QSet<QString> onPopup;
    const auto showsPopup = [&popupBounds](const QRect& bounds) {
        return std::any_of(popupBounds.cbegin(), popupBounds.cend(),
                           [&bounds](const QRect& p) { return intersectionOverUnion(p, bounds) >= 0.5; });
    };
    for (const platform::AccessibleNode& n : snapshot.nodes) {
        parentOfRef.insert(n.ref, n.parentRef);
        nodeOfRef.insert(n.ref, &n);
        if (n.depth == 0) {
            windowRef = n.ref;
            const std::optional<int> index = matched.value(n.ref);
            windowInfo = index ? &scene.windows.at(*index) : nullptr;
            skipWindow = foreign.contains(n.ref) || (scene.ownPid > 0 && n.pid == scene.ownPid) ||
                         (windowInfo && scene.ownPid > 0 && windowInfo->pid == scene.ownPid);
            windowBounds = windowInfo ? windowInfo->geometry.united(n.bounds) : n.bounds;
            windowRegion = QRegion(windowBounds);
            if (!scene.screen.isNull())
                windowRegion &= scene.screen;
            windowRegion -= excluded;
            if (index) {
                for (int above = *index + 1; above < scene.windows.size(); ++above)
                    windowRegion -= scene.windows.at(above).geometry;
                windowRegion -= popups;
            }
            if (skipWindow)
                windowRegion = QRegion();
            result.windowRegions.insert(n.ref, windowRegion);
            result.windowIds.insert(n.ref, windowInfo ? windowInfo->id : 0);
            continue;
        }
        if (skipWindow || n.windowRef != windowRef)
            continue;
        // Under a popup's node (the popup's own list, matched by its box): clipped to the popup.
        const bool popupContent =
            !popupBounds.isEmpty() && (onPopup.contains(n.parentRef) || showsPopup(n.bounds));
        if (popupContent)
            onPopup.insert(n.ref);
        if (!n.hasState(QStringLiteral("showing")) || !n.hasState(QStringLiteral("visible")) ||
            n.bounds.isEmpty()) {
            ++result.skipped;
            continue;
        }
        std::optional<ZoneType> type = zoneTypeForRole(n.role);
        if (!type) {
            continue; // a container: its children are the zones
        }
        const bool editable = n.hasState(QStringLiteral("editable")) || isEditableTextRole(n.role);
        if (*type == ZoneType::TextField && !editable)
            type = ZoneType::Static; // read-only text
        QRect clipped = popupContent ? n.bounds : n.bounds & windowBounds;
        if (!scene.screen.isNull())
            clipped &= scene.screen;
        const QRegion visible = popupContent ? (popups - excluded) & clipped : windowRegion & clipped;
        if (clipped.isEmpty() || double(area(visible)) < kMinVisibleShare * double(area(clipped))) {
            ++result.skipped;
            continue;
        }
        Zone z;
        z.type = *type;
        z.bounds = visible.boundingRect();
        z.state = zoneStateFor(n.states, n.role);
        z.isPassword = n.role == QLatin1String("password text");
        z.label = n.name.trimmed();
        if (z.label.isEmpty())
            z.label = n.labelledBy.trimmed();
        if (z.label.isEmpty() && z.type == ZoneType::Static)
            z.label = n.value.trimmed().left(kMaxLabelChars);
        if (z.label.isEmpty())
            z.label = n.description.trimmed();
        if (z.type == ZoneType::Static && z.label.isEmpty()) {
            ++result.skipped;
            continue;
        }
        if (z.type != ZoneType::Static && !z.isPassword)
            z.value = n.value;
        if (z.isPassword)
            z.textLength = n.characterCount;
        z.events = eventsFor(z.type, n);
        z.confidence = kTreeConfidence;
        z.source = ZoneSource::Accessibility;
        if (!z.label.isEmpty())
            z.labelSource = LabelSource::Tree;
        z.role = n.role;
        z.keyBinding = n.keyBinding;
        z.accessibleRef = n.ref;
        z.accessiblePath = n.pathString();
        z.application =
            windowInfo && !windowInfo->windowClass.isEmpty() ? windowInfo->windowClass : n.application;
        z.windowId = windowInfo ? windowInfo->id : 0;
        // Its id from what identifies it in its program (not the object path, which changes per process).
        QList<std::pair<QString, QString>> ancestors;
        for (QString p = n.parentRef; !p.isEmpty(); p = parentOfRef.value(p)) {
            const platform::AccessibleNode* a = nodeOfRef.value(p);
            if (!a)
                break;
            ancestors.prepend({a->role, a->name});
        }
        z.id = ids.allocate(treeZoneKey(z.application, n.role, ancestors, n.name));
        // The nearest ancestor that is a zone (a menu's items under their menu, a combo's list...).
        for (QString p = n.parentRef; !p.isEmpty(); p = parentOfRef.value(p)) {
            const auto it = zoneIdOfRef.constFind(p);
            if (it != zoneIdOfRef.cend()) {
                z.parentId = *it;
                break;
            }
        }
        zoneIdOfRef.insert(n.ref, z.id);
        result.zones << z;
    }
    return result;
}

QList<Zone> fuseZones(const QList<Zone>& treeZones, const QList<Zone>& visionZones, double matchIou)
{
    QList<Zone> fused = treeZones;
    QList<Zone> extra;
    for (const Zone& v : visionZones) {
        int best = -1;
        double bestIou = 0;
        for (int i = 0; i < fused.size(); ++i) {
            const double iou = intersectionOverUnion(fused.at(i).bounds, v.bounds);
            if (iou > bestIou) {
                bestIou = iou;
                best = i;
            }
        }
        if (best >= 0 && bestIou >= matchIou) {
            Zone& t = fused[best];
            t.confidence = 1.0; // seen by both
            if (t.label.isEmpty())
                t.label = v.label; // an icon button without a name: what vision read, if anything
            continue;
        }
        // Inside a tree zone (a button's caption, a field's text): the same element.
        const bool inside = std::any_of(treeZones.cbegin(), treeZones.cend(), [&v](const Zone& t) {
            return t.type != ZoneType::Static && shareInside(v.bounds, t.bounds) >= 0.6;
        });
        if (inside)
            continue;
        // Text the tree has too, where one box holds the other: a label's or a status bar's words, the tree's
        // box the widget's and vision's the ink's (or a line of ink running past the label). The tree's zone
        // stands for both; otherwise the canvas would publish the label twice. Vision types bare text by
        // where it lies (a word at a window's top taken for a menu, a row of words for tabs, underlined for
        // a link): where the tree says the words are a label, they are (kdialog's "Pick a colour:" was a
        // menu item to click). What vision saw drawn around the words (a button, a field) stays its own.
        const bool textLike = v.type == ZoneType::Static || v.type == ZoneType::MenuItem ||
                              v.type == ZoneType::Tab || v.type == ZoneType::Link;
        const int same = textLike ? sameTextIndex(fused, v) : -1;
        if (same >= 0) {
            fused[same].confidence = 1.0;
            continue;
        }
        extra << v;
    }
    return fused + extra;
}

} // namespace ciu::canvas
