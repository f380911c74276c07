#pragma once

// Zone memory: the zones of the windows the agent mapped, per program (WM_CLASS) and window layout (window
// size
// + a small thumbnail), kept as plain JSON under $XDG_DATA_HOME/ciu-agent/zones. When a known window comes
// back, its zones can be put on the map at once (marked remembered) and confirmed by the tree or by a cheap
// pixel check of each zone instead of waiting for a full analysis. Never stores what a zone contains
// (values), and nothing of a password field but its place.

#include "core/model/zone.h"

#include <QByteArray>
#include <QHash>
#include <QImage>
#include <QJsonObject>
#include <QList>
#include <QRect>
#include <QSize>
#include <QString>

#include <optional>

namespace ciu {

// One remembered layout of a program's window: window-relative zones and what their pixels looked like.
struct RememberedLayout
{
    QSize windowSize;
    QByteArray thumbnail;               // kThumbnailSide² grey levels of the whole window
    QList<Zone> zones;                  // window-relative bounds, source as mapped, no values
    QHash<QString, quint64> signatures; // zone id → pixel signature (none for password fields)
    qint64 savedMs = 0;                 // wall clock (ms since the epoch) of the last remember

    bool operator==(const RememberedLayout&) const = default;
};

// Remembered zones on the map carry vision's source (Local) and this confidence (exact in binary, which no
// analysis produces) until an analysis or the tree finds them again and gives them their own.
inline constexpr double kRememberedConfidence = 0.6015625;
bool isRemembered(const Zone& zone);

// Everything remembered of one program.
struct ProgramMemory
{
    QString program;
    QList<RememberedLayout> layouts; // most recent first

    bool operator==(const ProgramMemory&) const = default;
    QJsonObject toJson() const;
    // Strict: nullopt with `error` set for a wrong or missing field.
    static std::optional<ProgramMemory> fromJson(const QJsonObject& object, QString* error = nullptr);
};

// The cheap looks the memory compares.
namespace zonesignature {
inline constexpr int kThumbnailSide = 16;
// A window's image shrunk to kThumbnailSide² grey levels.
QByteArray thumbnail(const QImage& window);
// Mean absolute difference of two thumbnails, 0 (same) .. 1; 1 for thumbnails of different sizes.
double thumbnailDistance(const QByteArray& a, const QByteArray& b);
// A zone's pixels as a 64-bit difference hash (9×8 grey levels, each bit: brighter than its right neighbour),
// and whether the crop is flat (no edges: the hash says nothing then).
quint64 pixelSignature(const QImage& crop);
bool isFlat(const QImage& crop);
int hammingDistance(quint64 a, quint64 b);
} // namespace zonesignature

class ZoneMemory
{
public:
    struct Options
    {
        int maxLayoutsPerProgram = 12;
        double maxThumbnailDistance = 0.06; // layout "close": mean grey difference at most this
        int sizeTolerancePx = 4;            // and the window size within this
        int maxSignatureDistance = 10;      // a zone's pixels "the same": at most this many bits differ
        // A recall "confirmed well" (match()): its map may stand without a full analysis of the window.
        double wellConfirmedShare = 0.8; // at least this share of the remembered zones pass the pixel check
        double wellMaxThumbnailDistance =
            0.03;                   // and the window's thumbnail at most this far (half of "close")
        int changedCellLevels = 24; // a thumbnail cell differs: more than this many grey levels
    };

    // How well a recalled layout fits the window as it is now, and where it differs.
    struct RecallMatch
    {
        int confirmed = 0;              // remembered zones that passed their pixel check
        int remembered = 0;             // zones of the layout
        double thumbnailDistance = 1.0; // the window's thumbnail against the remembered one
        QList<QRect> changed;           // window-relative: dropped zones and thumbnail cells that differ
        bool confirmedWell = false;     // the criterion of Options (wellConfirmedShare, ...) met
    };

    ZoneMemory();
    explicit ZoneMemory(QString directory);
    ZoneMemory(QString directory, Options options);

    static QString defaultDirectory(); // $XDG_DATA_HOME/ciu-agent/zones
    QString directory() const { return m_directory; }
    const Options& options() const { return m_options; }
    QString filePath(const QString& program) const;

    // Empty memory when nothing is stored; nullopt with `error` when the file is unreadable or corrupt.
    std::optional<ProgramMemory> load(const QString& program, QString* error = nullptr) const;
    // Writes atomically; a memory without layouts removes the file.
    bool save(const ProgramMemory& memory, QString* error = nullptr) const;

    // Remembers the zones of a window (root coordinates; those centred in `windowGeometry` count) with the
    // window's pixels (`window`: the window's own image, its size that of `windowGeometry`). Replaces the
    // closest remembered layout of the same size, else adds one (the oldest beyond the limit goes). A corrupt
    // file is never overwritten: false with `error`.
    bool remember(const QString& program, const QRect& windowGeometry, const QImage& window,
                  const QList<Zone>& zones, QString* error = nullptr);
    // The remembered layout closest to this window (same program, size within the tolerance, thumbnail
    // within the distance), nullopt when none is; `error` set when the file is corrupt.
    std::optional<RememberedLayout> recall(const QString& program, const QImage& window,
                                           QString* error = nullptr) const;
    // The zones of `layout` whose pixels in `window` still look as remembered (and password fields, which
    // have no signature, when their surroundings matched), at root coordinates (`windowOrigin`), source
    // Memory. `dropped` counts the others.
    QList<Zone> confirmedZones(const RememberedLayout& layout, const QImage& window, QPoint windowOrigin,
                               int* dropped = nullptr) const;
    // How well `layout` fits `window`, `confirmed` being what confirmedZones() kept (ids count). Confirmed
    // well when the layout has zones, at least wellConfirmedShare of them were confirmed and the thumbnail is
    // within wellMaxThumbnailDistance: the window's map is then the remembered zones, and only `changed`
    // (the zones that failed their check, the thumbnail cells whose grey level moved) needs a look.
    RecallMatch match(const RememberedLayout& layout, const QImage& window,
                      const QList<Zone>& confirmed) const;

    // Settings: what is stored, and removing it.
    QStringList programs() const;
    bool forget(const QString& program, QString* error = nullptr) const;
    bool clear(QString* error = nullptr) const;

private:
    QString m_directory;
    Options m_options;
};

} // namespace ciu
