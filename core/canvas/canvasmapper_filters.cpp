// CanvasMapper, what the canvas must not see or keep: the agent's own windows (excluded regions: masked out
// of every analysis, their changes ignored, zones there not published) and the user's corrections
// (suppressed regions and user zones: detections matching them are dropped); and what it is told: the app
// schemas' named zones, applied to every published map by the same rule (isSameZone()) below the corrections,
// and the corrections as stored, for a mapper no app pushes them to.

#include "core/canvas/canvaslog.h"
#include "core/canvas/canvasmapper.h"
#include "core/canvas/canvasmapper_corrections.h"
#include "core/knowledge/correctionstore.h"
#include "core/knowledge/schemazones.h"
#include "core/knowledge/shortcutstore.h"
#include "core/model/geometry.h"

#include <QPainter>
#include <QSet>
#include <QTimer>

namespace ciu::canvas {
namespace {

// What the agent's own windows look like to the analysis: flat, no edges, not white (a white area
// would read as a text field).
const QColor kExcludedFill(0x80, 0x80, 0x80);

} // namespace

void CanvasMapper::setExcludedRegions(const QList<QRect>& rects)
{
    const QRegion before = m_excludedRegion;
    m_excluded.clear();
    m_excludedRegion = QRegion();
    for (const QRect& r : rects) {
        const QRect n = r.normalized();
        if (n.isEmpty())
            continue;
        m_excluded << n;
        m_excludedRegion += n;
    }
    if (m_excludedRegion == before)
        return;
    dropFilteredZones();
    // What is no longer excluded was never analysed (its changes were ignored): look at it now.
    const QRegion revealed = before.subtracted(m_excludedRegion);
    if (m_map && m_frame.isValid() && !revealed.isEmpty()) {
        TierDecision d;
        d.action = TierDecision::Action::Local;
        d.tier = 1;
        d.reason = QStringLiteral("exclusion_changed");
        const QRect screen(m_frame.origin, m_frame.image.size());
        for (const QRect& r : revealed)
            d.regions << r.intersected(screen);
        d.regions = m_policy.mergeRegions(d.regions, m_frame.image.size());
        d.regions.removeIf([](const QRect& r) { return r.width() < 4 || r.height() < 4; });
        if (!d.regions.isEmpty()) {
            emitDecision(d, m_frame.tNs);
            execute(d, FrameDiff{});
        }
    }
    publish();
}

void CanvasMapper::setSuppressedRegions(const QList<QRect>& rects)
{
    m_suppressed.clear();
    for (const QRect& r : rects) {
        if (!r.normalized().isEmpty())
            m_suppressed << r.normalized();
    }
    dropFilteredZones();
    publish();
}

bool CanvasMapper::isExcluded(const QRect& rect) const
{
    return !m_excluded.isEmpty() && QRegion(rect).subtracted(m_excludedRegion).isEmpty();
}

QList<Zone> CanvasMapper::filterDetections(const QList<Zone>& zones) const
{
    if (zones.isEmpty())
        return zones;
    QList<const Zone*> user;
    for (const Zone& z : m_registry.zones()) {
        if (z.source == ZoneSource::User)
            user << &z;
    }
    if (m_excluded.isEmpty() && m_suppressed.isEmpty() && user.isEmpty())
        return zones;
    QList<Zone> kept;
    kept.reserve(zones.size());
    for (const Zone& z : zones) {
        if (z.source == ZoneSource::User) {
            kept << z;
            continue;
        }
        bool drop = !m_excluded.isEmpty() && m_excludedRegion.contains(z.bounds.center());
        for (qsizetype i = 0; !drop && i < m_suppressed.size(); ++i)
            drop = isSameZone(m_suppressed.at(i), z.bounds);
        for (qsizetype i = 0; !drop && i < user.size(); ++i)
            drop = user.at(i)->id != z.id && isSameZone(user.at(i)->bounds, z.bounds);
        if (!drop)
            kept << z;
    }
    return kept;
}

bool CanvasMapper::dropFilteredZones()
{
    QList<Zone> detected;
    for (const Zone& z : m_registry.zones()) {
        if (z.source != ZoneSource::User)
            detected << z;
    }
    const QList<Zone> kept = filterDetections(detected);
    if (kept.size() == detected.size())
        return false;
    QSet<QString> keep;
    for (const Zone& z : kept)
        keep.insert(z.id);
    QStringList gone;
    for (const Zone& z : std::as_const(detected)) {
        if (!keep.contains(z.id))
            gone << z.id;
    }
    for (const QString& id : std::as_const(gone)) {
        m_registry.remove(id);
        m_graveyard.remove(id); // never brought back
        m_graveyardOrder.removeAll(id);
        if (m_hoveredId == id)
            m_hoveredId.clear();
    }
    m_local.forgetTemplates(gone);
    m_registry.takeRemovedIds();
    qCDebug(lcCanvas) << "dropped" << gone.size() << "zones ruled out by exclusions or corrections";
    return true;
}

void CanvasMapper::setAppSchemas(std::unique_ptr<ShortcutStore> store)
{
    m_schemaStore = std::move(store);
    m_schemaZones.clear();
    publish();
}

const QList<NamedZone>& CanvasMapper::schemaZones(const QString& program)
{
    auto it = m_schemaZones.find(program);
    if (it != m_schemaZones.end())
        return *it;
    QList<NamedZone> zones;
    QString error;
    if (const auto schema = knownShortcuts(*m_schemaStore, program, &error)) {
        zones = schema->zones;
        if (!zones.isEmpty())
            qCInfo(lcCanvas) << "app schema of" << program << "names" << zones.size() << "zones";
    } else {
        qCWarning(lcCanvas) << "app schema of" << program << "not used:" << error;
        emitComponentError(QStringLiteral("app_schema"), error);
    }
    return *m_schemaZones.insert(program, zones);
}

std::optional<QList<Zone>> CanvasMapper::withSchemaZones(const QList<Zone>& zones)
{
    if (!m_schemaStore)
        return std::nullopt;
    QList<Zone> result = zones;
    bool applied = false;
    for (const platform::WindowInfo& w : std::as_const(m_windowList)) {
        if (w.windowClass.isEmpty() || w.geometry.isEmpty() || isExcluded(w.geometry))
            continue;
        const QList<NamedZone>& named = schemaZones(w.windowClass);
        if (named.isEmpty())
            continue;
        result = applySchemaZones(named, w, result, m_windowList, m_frame.tNs);
        applied = true;
    }
    if (!applied)
        return std::nullopt;
    // A named zone where the user removed a detection, or in the agent's own windows, stays away too.
    QList<Zone> added;
    result.removeIf([&added](const Zone& z) {
        if (z.source != ZoneSource::Schema)
            return false;
        added << z;
        return true;
    });
    result << filterDetections(added);
    if (result == zones)
        return std::nullopt;
    return result;
}

void CanvasMapper::setCorrectionStore(std::unique_ptr<CorrectionStore> store)
{
    delete m_correctionsTimer;
    m_correctionsTimer = nullptr;
    m_corrections.reset();
    if (store) {
        m_corrections = std::make_unique<StoredCorrections>(std::move(store), m_options.correctionsCheckMs);
        // A correction saved while the screen stands still reaches the map too.
        if (m_options.correctionsCheckMs > 0) {
            m_correctionsTimer = new QTimer(this);
            m_correctionsTimer->setInterval(m_options.correctionsCheckMs);
            connect(m_correctionsTimer, &QTimer::timeout, this, &CanvasMapper::checkStoredCorrections);
            m_correctionsTimer->start();
        }
    }
    publish();
}

void CanvasMapper::checkStoredCorrections()
{
    // Before the first frame there is no map to correct yet (the first analysis publishes it).
    if (m_corrections && m_frame.isValid() && m_corrections->refresh(m_frame.tNs))
        publish();
}

std::optional<QList<Zone>> CanvasMapper::withStoredCorrections(const QList<Zone>& zones)
{
    if (!m_corrections)
        return std::nullopt;
    m_corrections->refresh(m_frame.tNs);
    QList<platform::WindowInfo> windows = m_windowList;
    windows.removeIf([this](const platform::WindowInfo& w) { return isExcluded(w.geometry); });
    std::optional<QList<Zone>> result = m_corrections->apply(zones, windows, m_frame.tNs);
    for (const StoredCorrections::Error& e : m_corrections->takeErrors())
        emitComponentError(QStringLiteral("corrections"), e.message,
                           {{QStringLiteral("program"), e.program}});
    return result;
}

QImage CanvasMapper::maskedImage() const
{
    const QRect frameRect(m_frame.origin, m_frame.image.size());
    if (m_excluded.isEmpty() || !m_excludedRegion.intersects(frameRect))
        return m_frame.image;
    QImage image = m_frame.image.convertToFormat(QImage::Format_RGB32);
    QPainter p(&image);
    for (const QRect& r : m_excluded)
        p.fillRect(r.translated(-m_frame.origin), kExcludedFill);
    p.end();
    return image;
}

FrameDiff CanvasMapper::withoutExcluded(const FrameDiff& diff) const
{
    if (m_excluded.isEmpty() || diff.regions.isEmpty())
        return diff;
    FrameDiff out = diff;
    out.regions.clear();
    double removedPixels = 0;
    bool animating = false;
    for (const ChangeRegion& c : diff.regions) {
        if (isExcluded(c.rect)) {
            removedPixels += double(c.rect.width()) * c.rect.height() * c.changedPercent / 100.0;
            continue;
        }
        out.regions << c;
        animating = animating || c.animating;
    }
    if (out.regions.size() == diff.regions.size())
        return diff;
    const double screen = double(m_frame.image.width()) * m_frame.image.height();
    out.totalPercent = screen > 0 ? std::max(0.0, diff.totalPercent - 100.0 * removedPixels / screen) : 0;
    out.animating = diff.animating && animating;
    return out;
}

} // namespace ciu::canvas
