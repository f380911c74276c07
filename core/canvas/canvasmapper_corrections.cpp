#include "core/canvas/canvasmapper_corrections.h"

#include "core/canvas/canvaslog.h"

#include <QFileInfo>

namespace ciu::canvas {
namespace {

// The zone inspector's program of zones that belong to no window (ZoneCorrections::applicationOf()).
const QString kDesktop = QStringLiteral("desktop");

} // namespace

StoredCorrections::StoredCorrections(std::unique_ptr<CorrectionStore> store, int checkIntervalMs)
    : m_store(std::move(store))
    , m_checkIntervalMs(std::max(0, checkIntervalMs))
{
    m_sinceCheck.start();
}

StoredCorrections::~StoredCorrections() = default;

StoredCorrections::FileState StoredCorrections::stateOf(const QString& program) const
{
    const QFileInfo info(m_store->filePath(program));
    if (!info.exists())
        return {};
    return {true, info.size(), info.lastModified()};
}

void StoredCorrections::read(const QString& program, Entry& entry, qint64 tNs)
{
    entry.state = stateOf(program);
    entry.set.reset();
    entry.readTNs = tNs;
    if (!entry.state.exists)
        return;
    QString error;
    std::optional<CorrectionSet> set = m_store->load(program, &error);
    if (!set) {
        qCWarning(lcCanvas) << "corrections of" << program << "not used:" << error;
        m_errors << Error{program, error};
        return;
    }
    qCInfo(lcCanvas) << "corrections of" << program << "read:" << set->zones.size() << "user zones,"
                     << set->suppressed.size() << "suppressed regions";
    if (!set->isEmpty())
        entry.set = std::move(set);
}

const CorrectionSet* StoredCorrections::corrections(const QString& program, qint64 tNs)
{
    auto it = m_entries.find(program);
    if (it == m_entries.end()) {
        it = m_entries.insert(program, Entry{});
        read(program, *it, tNs);
    }
    return it->set ? &*it->set : nullptr;
}

bool StoredCorrections::refresh(qint64 tNs)
{
    if (m_sinceCheck.elapsed() < m_checkIntervalMs)
        return false;
    m_sinceCheck.restart();
    bool changed = false;
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (stateOf(it.key()) == it->state)
            continue;
        read(it.key(), *it, tNs);
        changed = true;
    }
    return changed;
}

std::optional<QList<Zone>> StoredCorrections::apply(const QList<Zone>& zones,
                                                    const QList<platform::WindowInfo>& windows, qint64 tNs)
{
    QList<Zone> result = zones;
    bool applied = false;
    if (const CorrectionSet* desktop = corrections(kDesktop, tNs)) {
        result = applyCorrections(*desktop, result, QPoint(0, 0), m_entries.value(kDesktop).readTNs);
        applied = true;
    }
    // One window per program: stored user zones keep their ids, and an id is on a map once.
    QHash<QString, const platform::WindowInfo*> carriers;
    QStringList order;
    for (const platform::WindowInfo& w : windows) {
        if (w.windowClass.isEmpty() || w.windowClass == kDesktop || w.geometry.isEmpty())
            continue;
        const CorrectionSet* set = corrections(w.windowClass, tNs);
        if (!set || !set->matchesTitle(w.title))
            continue;
        const auto it = carriers.constFind(w.windowClass);
        if (it == carriers.cend())
            order << w.windowClass;
        if (it == carriers.cend() || !(*it)->active)
            carriers.insert(w.windowClass, &w);
    }
    for (const QString& program : std::as_const(order)) {
        const Entry& entry = *m_entries.constFind(program);
        const platform::WindowInfo* window = carriers.value(program);
        CorrectionSet set = *entry.set;
        for (Zone& z : set.zones)
            z.windowId = window->id;
        result = applyCorrections(set, result, window->geometry.topLeft(), entry.readTNs);
        applied = true;
    }
    if (!applied || result == zones)
        return std::nullopt;
    return result;
}

QList<StoredCorrections::Error> StoredCorrections::takeErrors()
{
    return std::exchange(m_errors, {});
}

} // namespace ciu::canvas
