#pragma once

#include "core/model/geometry.h"
#include "core/model/zone.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QPoint>
#include <QRect>
#include <QString>

#include <optional>

namespace ciu {

// The hand corrections of one application (window class): zones the user added or edited (source User,
// confidence 1) and the regions of detected zones the user deleted or replaced. Bounds are relative to
// the top-left of the application's window, so they reapply when the window has moved. A title pattern
// narrows the window down: only a window of the class whose title matches it carries the corrections.
struct CorrectionSet
{
    QString application;
    QList<Zone> zones;       // window-relative bounds
    QList<QRect> suppressed; // window-relative bounds of detected zones the user removed
    // A wildcard pattern (`*`, `?`, `[...]`, case-insensitive) the whole title must match; empty: any title.
    QString titlePattern;

    bool isEmpty() const { return zones.isEmpty() && suppressed.isEmpty() && titlePattern.isEmpty(); }
    bool operator==(const CorrectionSet&) const = default;
    // Whether a window with this title carries the corrections.
    bool matchesTitle(const QString& title) const;
    // A pattern that is valid (or empty); *error says what is wrong with one that is not.
    static bool isValidTitlePattern(const QString& pattern, QString* error = nullptr);

    QJsonObject toJson() const;
    // Strict: nullopt with `error` set for a wrong or missing field.
    static std::optional<CorrectionSet> fromJson(const QJsonObject& object, QString* error = nullptr);
};

// Two rectangles are "the same zone" when their intersection over union reaches this: the one rule by which a
// hand correction replaces or suppresses a detection and an app schema's named zone names one
// (core/knowledge/schemazones.h).
inline constexpr double kCorrectionMatchIoU = 0.5;
inline bool isSameZone(const QRect& a, const QRect& b)
{
    return intersectionOverUnion(a, b) >= kCorrectionMatchIoU;
}

// Applies one application's corrections to a zone list (root coordinates). Detected zones of that
// application (or of no known application) that match a suppressed region or a user zone are dropped;
// the user zones are added at `windowOrigin`, with source User and confidence 1, last seen at `tNs`.
// Idempotent: zones that already are user zones are never suppressed, and a user zone replaces an
// earlier copy with the same id.
QList<Zone> applyCorrections(const CorrectionSet& set, const QList<Zone>& zones, QPoint windowOrigin,
                             qint64 tNs = 0);

// A fresh id for a user zone ("u" + 8 hex digits).
QString newUserZoneId();

// Loads and saves correction sets as one JSON file per application under
// $XDG_DATA_HOME/ciu-agent/corrections (or a directory of the caller's choice, for tests).
class CorrectionStore
{
public:
    CorrectionStore();
    explicit CorrectionStore(QString directory);

    static QString defaultDirectory();
    QString directory() const { return m_directory; }
    // The file of an application: its name made safe for a file system ("Fixture App" → "Fixture_App.json").
    QString filePath(const QString& application) const;

    // An empty set when nothing is stored; nullopt with `error` set when the file is unreadable or corrupt.
    std::optional<CorrectionSet> load(const QString& application, QString* error = nullptr) const;
    // Writes atomically; an empty set removes the file.
    bool save(const CorrectionSet& set, QString* error = nullptr) const;
    // Applications with stored corrections.
    QStringList applications() const;

private:
    QString m_directory;
};

} // namespace ciu

Q_DECLARE_METATYPE(ciu::CorrectionSet)
