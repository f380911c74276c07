#include "core/knowledge/shortcutdiscovery.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>

namespace ciu {
namespace {

const QString kSeparator = QStringLiteral(" > ");

bool isMenuItemRole(const QString& role)
{
    return role == QLatin1String("menu item") || role == QLatin1String("check menu item") ||
           role == QLatin1String("radio menu item");
}

// What OCR often reads for "Ctrl" in the small fonts of menus ("Ctri+O", "Ctril+Q", "Ctr1+S"), as it is
// written.
QString withOcrModifiersFixed(const QString& text)
{
    static const QRegularExpression ctrl(QStringLiteral("\\bCtr[il1I|]{1,2}(?=\\s*\\+)"),
                                         QRegularExpression::CaseInsensitiveOption);
    QString fixed = text;
    fixed.replace(ctrl, QStringLiteral("Ctrl"));
    return fixed;
}

} // namespace

QList<Shortcut> shortcutsFromAccessibility(const platform::AccessibilitySnapshot& snapshot,
                                           const QString& windowRef)
{
    QHash<QString, const platform::AccessibleNode*> byRef;
    for (const platform::AccessibleNode& n : snapshot.nodes) {
        if (n.windowRef == windowRef)
            byRef.insert(n.ref, &n);
    }
    QList<Shortcut> result;
    for (const platform::AccessibleNode& n : snapshot.nodes) {
        if (n.windowRef != windowRef || !isMenuItemRole(n.role) ||
            withoutMnemonic(n.name).trimmed().isEmpty())
            continue;
        // The path: the names of the menus above, up to the menu bar (a popup menu between them has none).
        QStringList path{withoutMnemonic(n.name).trimmed()};
        bool inMenu = false;
        for (const platform::AccessibleNode* p = byRef.value(n.parentRef); p; p = byRef.value(p->parentRef)) {
            if (p->role == QLatin1String("menu bar"))
                break;
            if (p->role == QLatin1String("menu") || p->role == QLatin1String("popup menu") ||
                isMenuItemRole(p->role)) {
                inMenu = true;
                if (!p->name.trimmed().isEmpty())
                    path.prepend(withoutMnemonic(p->name).trimmed());
            }
        }
        if (!inMenu)
            continue; // a menu bar's own titles are no actions
        if (n.childCount > 0)
            continue; // a submenu's title (Qt: its popup menu is its child)
        Shortcut s;
        s.action = path.last();
        s.keys = acceleratorFromKeyBinding(n.keyBinding, n.name);
        s.menu = path.join(kSeparator);
        s.source = ShortcutSource::Atspi;
        result.append(s);
    }
    return result;
}

QList<platform::AccessibleNode> menuBarMenus(const platform::AccessibilitySnapshot& snapshot,
                                             const QString& windowRef)
{
    QHash<QString, QString> roleByRef;
    for (const platform::AccessibleNode& n : snapshot.nodes) {
        if (n.windowRef == windowRef)
            roleByRef.insert(n.ref, n.role);
    }
    QList<platform::AccessibleNode> result;
    for (const platform::AccessibleNode& n : snapshot.nodes) {
        if (n.windowRef == windowRef && roleByRef.value(n.parentRef) == QLatin1String("menu bar") &&
            (n.role == QLatin1String("menu") || n.role == QLatin1String("menu item")) && !n.bounds.isEmpty())
            result.append(n);
    }
    return result;
}

QList<Zone> menuBarTitles(const QList<Zone>& zones, QRect client, int barHeight)
{
    const QRect bar(client.topLeft(), QSize(client.width(), std::min(barHeight, client.height())));
    QList<Zone> result;
    for (const Zone& z : zones) {
        if (z.type == ZoneType::MenuItem && bar.contains(z.bounds.center()) &&
            !withoutMnemonic(z.label).trimmed().isEmpty())
            result.append(z);
    }
    std::stable_sort(result.begin(), result.end(),
                     [](const Zone& a, const Zone& b) { return a.bounds.x() < b.bounds.x(); });
    return result;
}

QList<Shortcut> shortcutsFromMenuRows(const QList<Zone>& zones, const QString& menuPath, QRect menuArea)
{
    QList<Shortcut> result;
    for (const Zone& z : zones) {
        const bool inArea = !menuArea.isNull() && menuArea.contains(z.bounds.center());
        if (z.type != ZoneType::MenuItem && !inArea)
            continue;
        const auto row = parseMenuRowText(withOcrModifiersFixed(z.label));
        if (!row || row->label.isEmpty())
            continue;
        Shortcut s;
        s.action = row->label;
        s.keys = row->keys;
        s.menu = menuPath.isEmpty() ? row->label : menuPath + kSeparator + row->label;
        s.source = ShortcutSource::Vision;
        result.append(s);
    }
    return result;
}

} // namespace ciu
