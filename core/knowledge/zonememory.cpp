// Zone memory: remembered zones per program and window layout, as plain JSON files (see zonememory.h).

#include "core/knowledge/zonememory.h"

#include "core/knowledge/knowledgefiles.h"
#include "core/knowledge/knowledgelog.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <bit>
#include <cmath>

namespace ciu {
namespace {

constexpr int kFormatVersion = 1;

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

QImage grey(const QImage& image, int width, int height)
{
    return image.convertToFormat(QImage::Format_RGB32)
        .scaled(width, height, Qt::IgnoreAspectRatio, Qt::SmoothTransformation)
        .convertToFormat(QImage::Format_Grayscale8);
}

// A zone as remembered: window-relative, nothing it contains, nothing of this process.
Zone stored(Zone z, QPoint windowOrigin)
{
    z.bounds.translate(-windowOrigin);
    z.value.clear();
    z.accessibleRef.clear();
    z.accessiblePath.clear();
    z.windowId = 0;
    z.lastSeenNs = 0;
    z.firstSeenNs = 0;
    z.temporary = false;
    z.state = z.state.testFlag(ZoneStateFlag::Disabled) ? ZoneState(ZoneStateFlag::Disabled)
                                                        : ZoneState(ZoneStateFlag::Enabled);
    return z;
}

} // namespace

namespace zonesignature {

QByteArray thumbnail(const QImage& window)
{
    if (window.isNull())
        return {};
    const QImage small = grey(window, kThumbnailSide, kThumbnailSide);
    QByteArray bytes;
    bytes.reserve(kThumbnailSide * kThumbnailSide);
    for (int y = 0; y < kThumbnailSide; ++y)
        bytes.append(reinterpret_cast<const char*>(small.constScanLine(y)), kThumbnailSide);
    return bytes;
}

double thumbnailDistance(const QByteArray& a, const QByteArray& b)
{
    if (a.size() != b.size() || a.isEmpty())
        return 1.0;
    qint64 sum = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        sum += std::abs(int(quint8(a.at(i))) - int(quint8(b.at(i))));
    return double(sum) / (255.0 * double(a.size()));
}

quint64 pixelSignature(const QImage& crop)
{
    if (crop.isNull())
        return 0;
    const QImage small = grey(crop, 9, 8);
    quint64 hash = 0;
    for (int y = 0; y < 8; ++y) {
        const uchar* row = small.constScanLine(y);
        for (int x = 0; x < 8; ++x)
            hash = (hash << 1) | (row[x] > row[x + 1] ? 1u : 0u);
    }
    return hash;
}

bool isFlat(const QImage& crop)
{
    if (crop.isNull())
        return true;
    const QImage small = grey(crop, 9, 8);
    int lo = 255;
    int hi = 0;
    for (int y = 0; y < 8; ++y) {
        const uchar* row = small.constScanLine(y);
        for (int x = 0; x < 9; ++x) {
            lo = std::min(lo, int(row[x]));
            hi = std::max(hi, int(row[x]));
        }
    }
    return hi - lo < 8;
}

int hammingDistance(quint64 a, quint64 b)
{
    return std::popcount(a ^ b);
}

} // namespace zonesignature

bool isRemembered(const Zone& zone)
{
    return zone.source == ZoneSource::Local && zone.confidence == kRememberedConfidence;
}

QJsonObject ProgramMemory::toJson() const
{
    QJsonArray layoutArray;
    for (const RememberedLayout& layout : layouts) {
        QJsonArray zoneArray;
        for (const Zone& zone : layout.zones) {
            QJsonObject o = ciu::toJson(zone);
            o.remove(QStringLiteral("last_seen_ns"));
            const auto it = layout.signatures.constFind(zone.id);
            if (it != layout.signatures.cend())
                o.insert(QStringLiteral("signature"),
                         QString::number(*it, 16).rightJustified(16, QLatin1Char('0')));
            zoneArray.append(o);
        }
        layoutArray.append(QJsonObject{
            {QStringLiteral("width"), layout.windowSize.width()},
            {QStringLiteral("height"), layout.windowSize.height()},
            {QStringLiteral("thumbnail"), QString::fromLatin1(layout.thumbnail.toHex())},
            {QStringLiteral("saved_ms"), QString::number(layout.savedMs)},
            {QStringLiteral("zones"), zoneArray},
        });
    }
    return {{QStringLiteral("format"), kFormatVersion},
            {QStringLiteral("program"), program},
            {QStringLiteral("layouts"), layoutArray}};
}

std::optional<ProgramMemory> ProgramMemory::fromJson(const QJsonObject& object, QString* error)
{
    if (!object.value(QLatin1String("format")).isDouble() ||
        object.value(QLatin1String("format")).toInt() != kFormatVersion) {
        fail(error, QStringLiteral("unsupported zone memory format (expected %1)").arg(kFormatVersion));
        return std::nullopt;
    }
    ProgramMemory memory;
    memory.program = object.value(QLatin1String("program")).toString();
    if (memory.program.isEmpty()) {
        fail(error, QStringLiteral("zone memory without a program"));
        return std::nullopt;
    }
    if (!object.value(QLatin1String("layouts")).isArray()) {
        fail(error, QStringLiteral("zone memory needs the array \"layouts\""));
        return std::nullopt;
    }
    const QJsonArray layouts = object.value(QLatin1String("layouts")).toArray();
    for (qsizetype i = 0; i < layouts.size(); ++i) {
        const QJsonObject l = layouts.at(i).toObject();
        const auto where = [i](const QString& what) {
            return QStringLiteral("layout %1: %2").arg(i).arg(what);
        };
        if (!l.value(QLatin1String("width")).isDouble() || !l.value(QLatin1String("height")).isDouble()) {
            fail(error, where(QStringLiteral("needs numbers \"width\" and \"height\"")));
            return std::nullopt;
        }
        RememberedLayout layout;
        layout.windowSize =
            QSize(l.value(QLatin1String("width")).toInt(), l.value(QLatin1String("height")).toInt());
        if (layout.windowSize.width() <= 0 || layout.windowSize.height() <= 0) {
            fail(error, where(QStringLiteral("the window size must be positive")));
            return std::nullopt;
        }
        const QString hex = l.value(QLatin1String("thumbnail")).toString();
        layout.thumbnail = QByteArray::fromHex(hex.toLatin1());
        constexpr int side = zonesignature::kThumbnailSide;
        if (hex.size() != 2 * side * side || layout.thumbnail.size() != side * side) {
            fail(error, where(QStringLiteral("\"thumbnail\" must be %1 hex digits").arg(2 * side * side)));
            return std::nullopt;
        }
        bool ok = false;
        layout.savedMs = l.value(QLatin1String("saved_ms")).toString().toLongLong(&ok);
        if (!ok) {
            fail(error, where(QStringLiteral("\"saved_ms\" must be a number in a string")));
            return std::nullopt;
        }
        if (!l.value(QLatin1String("zones")).isArray()) {
            fail(error, where(QStringLiteral("needs the array \"zones\"")));
            return std::nullopt;
        }
        const QJsonArray zones = l.value(QLatin1String("zones")).toArray();
        for (qsizetype j = 0; j < zones.size(); ++j) {
            if (!zones.at(j).isObject()) {
                fail(error, where(QStringLiteral("zone %1 is not an object").arg(j)));
                return std::nullopt;
            }
            const QJsonObject o = zones.at(j).toObject();
            QString zoneError;
            auto zone = zoneFromJson(o, &zoneError);
            if (!zone) {
                fail(error, where(QStringLiteral("zone %1: %2").arg(j).arg(zoneError)));
                return std::nullopt;
            }
            zone->value.clear();
            const QJsonValue signature = o.value(QLatin1String("signature"));
            if (!signature.isUndefined()) {
                const quint64 bits = signature.toString().toULongLong(&ok, 16);
                if (!ok || signature.toString().size() != 16) {
                    fail(error, where(QStringLiteral("zone %1: \"signature\" must be 16 hex digits").arg(j)));
                    return std::nullopt;
                }
                if (!zone->isPassword)
                    layout.signatures.insert(zone->id, bits);
            }
            layout.zones << *zone;
        }
        memory.layouts << layout;
    }
    return memory;
}

ZoneMemory::ZoneMemory()
    : ZoneMemory(defaultDirectory())
{
}

ZoneMemory::ZoneMemory(QString directory)
    : ZoneMemory(std::move(directory), Options{})
{
}

ZoneMemory::ZoneMemory(QString directory, Options options)
    : m_directory(std::move(directory))
    , m_options(options)
{
}

QString ZoneMemory::defaultDirectory()
{
    return knowledgefiles::dataDirectory(QStringLiteral("zones"));
}

QString ZoneMemory::filePath(const QString& program) const
{
    return knowledgefiles::programFile(m_directory, program);
}

std::optional<ProgramMemory> ZoneMemory::load(const QString& program, QString* error) const
{
    if (program.isEmpty()) {
        fail(error, QStringLiteral("no program name"));
        return std::nullopt;
    }
    QFile file(filePath(program));
    if (!file.exists())
        return ProgramMemory{program, {}};
    const std::optional<QJsonObject> object = knowledgefiles::readObject(file.fileName(), error);
    if (!object)
        return std::nullopt;
    QString memoryError;
    auto memory = ProgramMemory::fromJson(*object, &memoryError);
    if (!memory) {
        fail(error, QStringLiteral("%1: %2").arg(file.fileName(), memoryError));
        return std::nullopt;
    }
    if (memory->program != program) {
        fail(error, QStringLiteral("%1 holds the zones of \"%2\", not \"%3\"")
                        .arg(file.fileName(), memory->program, program));
        return std::nullopt;
    }
    return memory;
}

bool ZoneMemory::save(const ProgramMemory& memory, QString* error) const
{
    if (memory.program.isEmpty())
        return fail(error, QStringLiteral("zone memory without a program"));
    const QString path = filePath(memory.program);
    if (memory.layouts.isEmpty()) {
        if (QFile::exists(path) && !QFile::remove(path))
            return fail(error, QStringLiteral("cannot remove %1").arg(path));
        return true;
    }
    return knowledgefiles::writeObject(m_directory, path, memory.toJson(), error);
}

bool ZoneMemory::remember(const QString& program, const QRect& windowGeometry, const QImage& window,
                          const QList<Zone>& zones, QString* error)
{
    if (program.isEmpty())
        return fail(error, QStringLiteral("no program name"));
    if (window.isNull() || window.size() != windowGeometry.size())
        return fail(error, QStringLiteral("the window's image does not match its geometry"));
    auto memory = load(program, error);
    if (!memory)
        return false; // a corrupt file stays as it is
    RememberedLayout layout;
    layout.windowSize = windowGeometry.size();
    layout.thumbnail = zonesignature::thumbnail(window);
    layout.savedMs = QDateTime::currentMSecsSinceEpoch();
    const QRect inWindow(QPoint(0, 0), windowGeometry.size());
    for (const Zone& z : zones) {
        // The program's own zones: no tooltips, no hand corrections (kept by the correction store), nothing
        // only remembered and never confirmed.
        if (!windowGeometry.contains(z.bounds.center()) || z.temporary || z.source == ZoneSource::User ||
            isRemembered(z))
            continue;
        Zone s = stored(z, windowGeometry.topLeft());
        s.bounds &= inWindow;
        if (s.bounds.isEmpty())
            continue;
        if (!s.isPassword) {
            const QImage crop = window.copy(s.bounds);
            if (!zonesignature::isFlat(crop))
                layout.signatures.insert(s.id, zonesignature::pixelSignature(crop));
        }
        layout.zones << s;
    }
    // The same layout remembered again replaces its older self.
    int replace = -1;
    double best = m_options.maxThumbnailDistance;
    for (int i = 0; i < memory->layouts.size(); ++i) {
        const RememberedLayout& old = memory->layouts.at(i);
        if (std::abs(old.windowSize.width() - layout.windowSize.width()) > m_options.sizeTolerancePx ||
            std::abs(old.windowSize.height() - layout.windowSize.height()) > m_options.sizeTolerancePx)
            continue;
        const double d = zonesignature::thumbnailDistance(old.thumbnail, layout.thumbnail);
        if (d <= best) {
            best = d;
            replace = i;
        }
    }
    if (replace >= 0) {
        const RememberedLayout& old = memory->layouts.at(replace);
        if (old.zones == layout.zones && old.signatures == layout.signatures &&
            old.windowSize == layout.windowSize)
            return true; // nothing new: no write
        memory->layouts.removeAt(replace);
    }
    memory->layouts.prepend(layout);
    while (memory->layouts.size() > m_options.maxLayoutsPerProgram)
        memory->layouts.removeLast();
    qCDebug(lcZoneMemory) << "remembered" << layout.zones.size() << "zones of" << program
                          << layout.windowSize;
    return save(*memory, error);
}

std::optional<RememberedLayout> ZoneMemory::recall(const QString& program, const QImage& window,
                                                   QString* error) const
{
    if (program.isEmpty() || window.isNull())
        return std::nullopt;
    const auto memory = load(program, error);
    if (!memory)
        return std::nullopt;
    const QByteArray thumb = zonesignature::thumbnail(window);
    std::optional<RememberedLayout> best;
    double bestDistance = m_options.maxThumbnailDistance;
    for (const RememberedLayout& layout : memory->layouts) {
        if (std::abs(layout.windowSize.width() - window.width()) > m_options.sizeTolerancePx ||
            std::abs(layout.windowSize.height() - window.height()) > m_options.sizeTolerancePx)
            continue;
        const double d = zonesignature::thumbnailDistance(layout.thumbnail, thumb);
        if (d <= bestDistance) {
            bestDistance = d;
            best = layout;
        }
    }
    return best;
}

QList<Zone> ZoneMemory::confirmedZones(const RememberedLayout& layout, const QImage& window,
                                       QPoint windowOrigin, int* dropped) const
{
    QList<Zone> result;
    int lost = 0;
    const QRect inWindow(QPoint(0, 0), window.size());
    for (Zone z : layout.zones) {
        if (!inWindow.contains(z.bounds)) {
            ++lost;
            continue;
        }
        if (!z.isPassword) {
            // Its pixels as remembered: the same edges (or, for a zone that was flat, flat still).
            const QImage crop = window.copy(z.bounds);
            const auto it = layout.signatures.constFind(z.id);
            const bool same =
                it == layout.signatures.cend()
                    ? zonesignature::isFlat(crop)
                    : !zonesignature::isFlat(crop) &&
                          zonesignature::hammingDistance(*it, zonesignature::pixelSignature(crop)) <=
                              m_options.maxSignatureDistance;
            if (!same) {
                ++lost;
                continue;
            }
        }
        z.bounds.translate(windowOrigin);
        z.source = ZoneSource::Local; // what it is until the tree or an analysis says more
        z.confidence = kRememberedConfidence;
        result << z;
    }
    if (dropped)
        *dropped = lost;
    return result;
}

ZoneMemory::RecallMatch ZoneMemory::match(const RememberedLayout& layout, const QImage& window,
                                          const QList<Zone>& confirmed) const
{
    RecallMatch m;
    m.remembered = int(layout.zones.size());
    QSet<QString> kept;
    for (const Zone& z : confirmed)
        kept.insert(z.id);
    const QRect inWindow(QPoint(0, 0), window.size());
    for (const Zone& z : layout.zones) {
        if (kept.contains(z.id))
            ++m.confirmed;
        else if (const QRect r = z.bounds & inWindow; !r.isEmpty())
            m.changed << r;
    }
    const QByteArray now = zonesignature::thumbnail(window);
    m.thumbnailDistance = zonesignature::thumbnailDistance(layout.thumbnail, now);
    if (now.size() == layout.thumbnail.size()) {
        // Cell (x, y) of the thumbnail: the window's columns x·w/side .. (x+1)·w/side, rows likewise.
        const int side = zonesignature::kThumbnailSide;
        for (int y = 0; y < side; ++y) {
            for (int x = 0; x < side; ++x) {
                const int i = y * side + x;
                if (std::abs(int(quint8(now.at(i))) - int(quint8(layout.thumbnail.at(i)))) <=
                    m_options.changedCellLevels)
                    continue;
                const QRect cell(
                    QPoint(x * window.width() / side, y * window.height() / side),
                    QPoint((x + 1) * window.width() / side - 1, (y + 1) * window.height() / side - 1));
                if (!cell.isEmpty())
                    m.changed << cell;
            }
        }
    }
    m.confirmedWell = m.remembered > 0 && m.confirmed >= m_options.wellConfirmedShare * m.remembered &&
                      m.thumbnailDistance <= m_options.wellMaxThumbnailDistance;
    return m;
}

QStringList ZoneMemory::programs() const
{
    return knowledgefiles::storedNames(m_directory, QLatin1String("program"));
}

bool ZoneMemory::forget(const QString& program, QString* error) const
{
    if (program.isEmpty())
        return fail(error, QStringLiteral("no program name"));
    const QString path = filePath(program);
    if (!QFile::exists(path))
        return fail(error, QStringLiteral("nothing is remembered of \"%1\"").arg(program));
    if (!QFile::remove(path))
        return fail(error, QStringLiteral("cannot remove %1").arg(path));
    return true;
}

bool ZoneMemory::clear(QString* error) const
{
    const QDir dir(m_directory);
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        if (!QFile::remove(dir.filePath(name)))
            return fail(error, QStringLiteral("cannot remove %1").arg(dir.filePath(name)));
    }
    return true;
}

} // namespace ciu
