#include "ui/zonestyle.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace ciu::ui {

QColor zoneColor(ZoneType type)
{
    switch (type) {
    case ZoneType::Button:
        return QColor(0x21, 0x96, 0xf3); // blue
    case ZoneType::TextField:
        return QColor(0x4c, 0xaf, 0x50); // green
    case ZoneType::Link:
        return QColor(0x9c, 0x27, 0xb0); // purple
    case ZoneType::Dropdown:
        return QColor(0x00, 0x96, 0x88); // teal
    case ZoneType::CheckBox:
        return QColor(0xff, 0xc1, 0x07); // amber
    case ZoneType::Slider:
        return QColor(0x79, 0x55, 0x48); // brown
    case ZoneType::MenuItem:
        return QColor(0xe9, 0x1e, 0x63); // pink
    case ZoneType::Tab:
        return QColor(0x3f, 0x51, 0xb5); // indigo
    case ZoneType::ScrollArea:
        return QColor(0x60, 0x7d, 0x8b); // blue grey
    case ZoneType::Static:
        return QColor(0x9e, 0x9e, 0x9e); // grey
    }
    return QColor(0x9e, 0x9e, 0x9e);
}

double zoneFillOpacity(double confidence)
{
    const double c = std::isfinite(confidence) ? std::clamp(confidence, 0.0, 1.0) : 0.0;
    return 0.08 + 0.32 * c;
}

double zoneOutlineOpacity(double confidence)
{
    const double c = std::isfinite(confidence) ? std::clamp(confidence, 0.0, 1.0) : 0.0;
    return 0.35 + 0.65 * c;
}

QString zoneTypeDisplayName(ZoneType type)
{
    switch (type) {
    case ZoneType::Button:
        return QCoreApplication::translate("ciu::ui::ZoneStyle", "Button");
    case ZoneType::TextField:
        return QCoreApplication::translate("ciu::ui::ZoneStyle", "Text field");
    case ZoneType::Link:
        return QCoreApplication::translate("ciu::ui::ZoneStyle", "Link");
    case ZoneType::Dropdown:
        return QCoreApplication::translate("ciu::ui::ZoneStyle", "Drop-down");
    case ZoneType::CheckBox:
        return QCoreApplication::translate("ciu::ui::ZoneStyle", "Check box");
    case ZoneType::Slider:
        return QCoreApplication::translate("ciu::ui::ZoneStyle", "Slider");
    case ZoneType::MenuItem:
        return QCoreApplication::translate("ciu::ui::ZoneStyle", "Menu item");
    case ZoneType::Tab:
        return QCoreApplication::translate("ciu::ui::ZoneStyle", "Tab");
    case ZoneType::ScrollArea:
        return QCoreApplication::translate("ciu::ui::ZoneStyle", "Scroll area");
    case ZoneType::Static:
        return QCoreApplication::translate("ciu::ui::ZoneStyle", "Static");
    }
    return {};
}

} // namespace ciu::ui
