#pragma once

#include "platform/types.h"

#include <QFlags>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QRect>
#include <QString>
#include <QStringList>

#include <optional>

namespace ciu {

enum class ZoneType : quint8
{
    Button = 1,
    TextField,
    Link,
    Dropdown,
    CheckBox,
    Slider,
    MenuItem,
    Tab,
    ScrollArea,
    Static,
};

enum class ZoneStateFlag : quint16
{
    Enabled = 1u << 0,
    Disabled = 1u << 1,
    Focused = 1u << 2,
    Hovered = 1u << 3,
    Pressed = 1u << 4,
    Checked = 1u << 5,
    Unchecked = 1u << 6,
    Expanded = 1u << 7,
    Collapsed = 1u << 8,
    Selected = 1u << 9,  // a list item, tab or cell that is the current selection
    Editable = 1u << 10, // text the user can change
};
Q_DECLARE_FLAGS(ZoneState, ZoneStateFlag)
Q_DECLARE_OPERATORS_FOR_FLAGS(ZoneState)

// Where a zone came from.
enum class ZoneSource : quint8
{
    Local = 1,     // Tier 1 (OpenCV + OCR)
    Model,         // Tier 2 (a provider's inventory)
    User,          // hand correction in the zone inspector
    Accessibility, // the accessibility tree (AT-SPI)
    Synthetic,     // tests
    Schema,        // a named zone of the program's app schema with nothing detected there
};

// Where a zone's label came from (a zone's source says where the zone came from; a vision zone's label can
// come from an icon or a tooltip). Unknown: not recorded (files written before the field existed).
enum class LabelSource : quint8
{
    Unknown = 0,
    Ocr,     // text read in the zone or beside it
    Tree,    // the accessibility tree's name
    Icon,    // the zone's icon matched against the installed icon themes
    Tooltip, // the tooltip shown when hovering it
    User,    // typed in a hand correction
    Model,   // a provider's zone inventory (Tier 2)
    Schema,  // the name of a named zone of the program's app schema (core/knowledge/schemazones.h)
};

// A bounded rectangle of the screen with interactive meaning.
struct Zone
{
    QString id;
    QRect bounds; // root coordinates
    ZoneType type = ZoneType::Static;
    QString label;
    LabelSource labelSource = LabelSource::Unknown;
    ZoneState state = ZoneStateFlag::Enabled;
    QString parentId;      // empty: top level
    QStringList events;    // what interacting does ("click", "opens_menu", ...)
    double confidence = 0; // 0..1
    qint64 lastSeenNs = 0;
    qint64 firstSeenNs = 0;
    ZoneSource source = ZoneSource::Local;
    QString application; // window class of the owning window
    quint64 windowId = 0;
    bool temporary = false; // tooltips: removed when the screen changes under them
    bool isPassword = false;
    // From the accessibility tree (empty for other sources):
    QString role;           // the accessible's role ("push button", "check box", "page tab", ...)
    QString value;          // text content, numeric value or selected item (never a password)
    int textLength = -1;    // a password field's: how many characters it holds (never its text); else -1
    QString keyBinding;     // its key binding ("<Alt>f", "Ctrl+S")
    QString accessibleRef;  // the accessible object ("bus-name:object-path") to query again
    QString accessiblePath; // its index path in the tree ("0/2/1/4")

    bool isInteractive() const { return type != ZoneType::Static; }
    QPoint center() const { return bounds.center(); }
    bool operator==(const Zone&) const = default;
};

// Whether a window above the zone's own lies over the zone's centre (`windows` in stacking order, bottom
// first): what shows there is that window, not the zone. False when the zone's window is unknown or not
// listed.
bool coveredByWindowAbove(const Zone& zone, const QList<platform::WindowInfo>& windows);

// Types whose label is a name (a button's caption, a tab's title), not a value or a text: button, menu item,
// tab, check box, link.
bool isNamedControl(ZoneType type);

QString toString(ZoneType type);
std::optional<ZoneType> zoneTypeFromString(const QString& name);
QStringList allZoneTypeNames();
QString toString(ZoneSource source);
std::optional<ZoneSource> zoneSourceFromString(const QString& name);
// "ocr", "tree", "icon", "tooltip", "user", "model", "schema"; "" for Unknown.
QString toString(LabelSource source);
// nullopt for a name that is none of those (the empty name is Unknown).
std::optional<LabelSource> labelSourceFromString(const QString& name);
QStringList zoneStateNames(ZoneState state);
// Unknown names are reported in `unknown` (when given) and ignored.
ZoneState zoneStateFromNames(const QStringList& names, QStringList* unknown = nullptr);

QJsonObject toJson(const Zone& zone);
// Strict: returns nullopt with `error` set for a missing or wrong field.
std::optional<Zone> zoneFromJson(const QJsonObject& object, QString* error = nullptr);

} // namespace ciu

Q_DECLARE_METATYPE(ciu::Zone)
