// Stable zone ids from what identifies an element (see zoneidentity.h).

#include "core/canvas/zoneidentity.h"

#include <QCryptographicHash>

#include <cmath>

namespace ciu::canvas {
namespace {

constexpr QChar kSeparator(0x1f); // a unit separator: never in a name
constexpr int kMaxNameChars = 60; // a long name (a paragraph) identifies by its start

QString part(const QString& text)
{
    return text.simplified().left(kMaxNameChars);
}

int quantised(int value)
{
    return int(std::lround(double(value) / kIdPositionQuantum));
}

} // namespace

QString zoneIdForKey(const QString& key)
{
    const QByteArray hash = QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1).toHex();
    return QLatin1Char('z') + QString::fromLatin1(hash.left(8));
}

QString treeZoneKey(const QString& program, const QString& role,
                    const QList<std::pair<QString, QString>>& ancestors, const QString& name)
{
    QString key = QStringLiteral("tree") + kSeparator + program + kSeparator + role;
    for (qsizetype i = 0; i < ancestors.size(); ++i) {
        key += kSeparator + ancestors.at(i).first + QLatin1Char('=');
        if (i > 0)
            key += part(ancestors.at(i).second);
    }
    return key + kSeparator + part(name);
}

QString visionZoneKey(const Zone& zone, QPoint windowOrigin)
{
    const QPoint p = zone.bounds.topLeft() - windowOrigin;
    return QStringLiteral("vision") + kSeparator + zone.application + kSeparator + toString(zone.type) +
           kSeparator + part(zone.label).toLower() + kSeparator + QString::number(quantised(p.x())) +
           QLatin1Char(',') + QString::number(quantised(p.y()));
}

ZoneIdAllocator::ZoneIdAllocator(QSet<QString> taken)
    : m_taken(std::move(taken))
{
}

QString ZoneIdAllocator::allocate(const QString& key)
{
    QString id = zoneIdForKey(key);
    for (int n = 2; m_taken.contains(id); ++n)
        id = zoneIdForKey(key + QLatin1Char('#') + QString::number(n));
    m_taken.insert(id);
    return id;
}

} // namespace ciu::canvas
