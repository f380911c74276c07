// libFuzzer target: reading a recorded session (core/replay/sessionreader.h). The first byte picks the file
// the rest becomes (metadata.json, one of the JSONL streams or the key frames' index); the reader opens the
// folder and every query the replay viewer and the exporters make is asked of it.

#include "core/replay/sessionformat.h"
#include "core/replay/sessionreader.h"
#include "tests/fuzz/fuzzsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

namespace {

const QString& fileFor(uint8_t selector)
{
    using namespace ciu::replay;
    static const QStringList names{files::metadata, files::cursor,   files::zones,      files::events,
                                   files::actions,  files::director, files::framesIndex};
    return names.at(selector % names.size());
}

QTemporaryDir* folder()
{
    static QTemporaryDir dir;
    return &dir;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    ciu::fuzz::initialize(argc, argv);
    if (!folder()->isValid() || !QDir(folder()->path()).mkpath(ciu::replay::files::framesDir))
        abort();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
        return 0;
    using namespace ciu;
    using namespace ciu::replay;
    const QString path = folder()->filePath(fileFor(data[0]));
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            file.write(reinterpret_cast<const char*>(data + 1), qint64(size - 1)) != qint64(size - 1))
            abort();
    }

    SessionReader reader;
    if (!reader.open(folder()->path()))
        abort(); // the folder is there: a bad file is a problem listed, never a failed open
    reader.task();
    const QSize screen = reader.screenSize();
    if (screen.width() < 0 || screen.height() < 0)
        abort();
    const qint64 end = reader.durationNs();
    if (end < 0)
        abort();
    // Where the replay viewer seeks: the start, the end, every recorded moment and just before it.
    QList<qint64> times{0, end / 2, end, -1, std::numeric_limits<qint64>::max()};
    for (const CursorSample& s : reader.cursorSamples())
        times << s.tNs;
    for (const SpatialEvent& e : reader.events())
        times << e.tNs;
    for (const DirectorRecord& r : reader.directorRecords())
        times << r.tNs;
    for (const KeyFrameRecord& k : reader.keyFrames())
        times << k.tNs;
    for (const qint64 t : times) {
        const ZoneMapPtr map = reader.zoneMapAt(t);
        if (!map)
            abort();
        for (const Zone& zone : map->zones())
            map->zoneAt(zone.bounds.center());
        reader.cursorAt(t);
        reader.cursorTrail(t, 2'000'000'000);
        if (reader.eventCountAt(t) > reader.events().size())
            abort();
        reader.directorStepAt(t);
        reader.zoneMapAt(t - 1);
    }
    for (const LogEntry& entry : reader.log())
        entry.text.size();
    for (const Marker& marker : reader.markers())
        toString(marker.kind);
    QFile::remove(path);
    return 0;
}
