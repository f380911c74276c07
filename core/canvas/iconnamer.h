#pragma once

// Names icon-only buttons: matches the pixels of a small zone against the installed freedesktop icon
// themes (Adwaita, hicolor, ... following index.theme and Inherits) by shape, independent of the colours
// the program's theme gives the icon, and maps the icon's name to a readable label.

#include <QImage>
#include <QList>
#include <QRect>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace ciu::canvas {

struct IconMatch
{
    QString iconName;         // the theme's name without "-symbolic" ("document-save")
    QString label;            // readable ("Save"), see IconNamer::labelFor()
    double score = 0;         // normalised correlation of the shapes, -1..1
    double margin = 0;        // over the best icon with another label
    double distanceRatio = 0; // (1 - score) / (1 - that icon's score): 0 sure .. 1 a tie
    QString runnerUp;         // that icon's name
    QRect iconRect;           // where the icon was found (image coordinates)
    int size = 0;             // the theme size whose pixmap matched best (16, 22, 24, 32, 48)
};

// Loads lazily (on the first name() or load()) and keeps one descriptor per icon, size and look; naming a
// zone compares one small vector per candidate. Not thread-safe: one instance per thread.
class IconNamer
{
public:
    struct Options
    {
        QStringList themes{QStringLiteral("Adwaita")}; // searched first to last, each with its Inherits
        // Base directories holding themes; empty: $XDG_DATA_HOME/icons, ~/.icons, $XDG_DATA_DIRS/icons.
        QStringList searchPaths;
        QList<int> sizes{16, 22, 24, 32, 48}; // the nominal sizes indexed
        // index.theme contexts indexed: what tool bars and title bars show (not file types or apps).
        QStringList contexts{QStringLiteral("Actions"), QStringLiteral("Status"), QStringLiteral("Places"),
                             QStringLiteral("Devices"), QStringLiteral("UI"),     QStringLiteral("Legacy"),
                             QStringLiteral("Emblems")};
        double minScore = 0.8; // a name needs at least this correlation with its icon
        // ... and at most this share of its distance to the best icon with another label (see
        // IconMatch::distanceRatio)
        double maxDistanceRatio = 0.5;
        int minIconPx = 8;   // the ink of an icon: at least this large in its longer side
        int maxIconPx = 80;  // ... and at most this large
        int maxZonePx = 120; // zones larger than this in either side are not looked at
    };

    IconNamer();
    explicit IconNamer(Options options);
    ~IconNamer();
    IconNamer(const IconNamer&) = delete;
    IconNamer& operator=(const IconNamer&) = delete;

    // Reads the themes once; false when no icon was found (errorString() says why).
    bool load();
    bool isLoaded() const;
    QString errorString() const;
    int iconCount() const;       // distinct icon names indexed
    int descriptorCount() const; // pixmaps indexed (names x sizes x variants)
    double loadMs() const;
    QStringList themeChain() const; // the themes read, in lookup order

    // The name of the icon drawn in `zone` (image coordinates) of `image`, or nullopt when the zone holds
    // no icon-sized ink or no icon matches clearly enough.
    std::optional<IconMatch> name(const QImage& image, const QRect& zone);

    // Like name(), also when unsure: the best match (for benchmarks and diagnostics).
    std::optional<IconMatch> bestMatch(const QImage& image, const QRect& zone);

    // "document-save" -> "Save", "edit-find" -> "Find", "window-close" -> "Close" (a table of common
    // freedesktop names); other names with '-' as ' ' ("view-paged" -> "view paged").
    static QString labelFor(const QString& iconName);

    // The name without the theme's variant suffixes ("-symbolic", "-ltr").
    static QString baseName(const QString& iconName);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace ciu::canvas
