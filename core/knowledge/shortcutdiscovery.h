#pragma once

// Discovery of menu shortcuts: from the accessibility snapshot (menu items' key bindings, their parent menus
// giving the path) and from the menu rows vision read on the screen (an accelerator at the right of a row).
// Both read only what is showing: the AT-SPI cache holds showing nodes, so the items of a closed menu are
// found once the menu is open (app/cmd_shortcuts.cpp opens each menu of the bar in turn).

#include "core/knowledge/shortcuts.h"
#include "core/model/zone.h"
#include "platform/accessibility.h"

#include <QList>
#include <QString>

namespace ciu {

// The menu items of one top-level window (its ref) that carry a key binding or a menu path: every item
// of role "menu item", "check menu item" or "radio menu item" below a menu; source Atspi.
QList<Shortcut> shortcutsFromAccessibility(const platform::AccessibilitySnapshot& snapshot,
                                           const QString& windowRef);

// The top-level menus of a window's menu bar (nodes of role "menu" or "menu item" whose parent is a
// "menu bar"), in order.
QList<platform::AccessibleNode> menuBarMenus(const platform::AccessibilitySnapshot& snapshot,
                                             const QString& windowRef);

// The titles of a window's menu bar as vision read them (no tree): labelled menu-item zones whose centre lies
// in the top `barHeight` pixels of the client area `client`, left to right.
QList<Zone> menuBarTitles(const QList<Zone>& zones, QRect client, int barHeight = 40);

// The shortcuts in the rows of an open menu read by vision: menu-item zones (or any zone inside `menuArea`
// when it is not null) whose label ends in an accelerator; `menuPath` ("File") is put before each label. What
// OCR often reads for "Ctrl" in small menu fonts ("Ctri+O") is taken for it.
QList<Shortcut> shortcutsFromMenuRows(const QList<Zone>& zones, const QString& menuPath, QRect menuArea = {});

} // namespace ciu
