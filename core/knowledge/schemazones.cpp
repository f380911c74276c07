#include "core/knowledge/schemazones.h"

#include "core/knowledge/correctionstore.h"
#include "core/model/geometry.h"

#include <QCryptographicHash>

namespace ciu {

bool hasAuthoritativeLabel(const Zone& zone)
{
    if (zone.label.isEmpty())
        return false;
    return zone.source == ZoneSource::User || zone.labelSource == LabelSource::User ||
           zone.labelSource == LabelSource::Tree ||
           (zone.source == ZoneSource::Accessibility && zone.labelSource == LabelSource::Unknown);
}

QString schemaZoneId(quint64 windowId, const QString& name)
{
    const QByteArray key = QByteArray::number(windowId) + '/' + name.toUtf8();
    return QStringLiteral("s") +
           QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha1).toHex().left(8));
}

QList<Zone> applySchemaZones(const QList<NamedZone>& named, const platform::WindowInfo& window,
                             const QList<Zone>& zones, const QList<platform::WindowInfo>& windows, qint64 tNs)
{
    if (named.isEmpty() || window.geometry.isEmpty())
        return zones;
    const auto ofWindow = [&window](const Zone& zone) {
        return (zone.application.isEmpty() || zone.application == window.windowClass) &&
               (zone.windowId == 0 || zone.windowId == window.id) &&
               window.geometry.contains(zone.bounds.center());
    };
    QList<Zone> result = zones;
    for (const NamedZone& n : named) {
        if (n.name.isEmpty())
            continue;
        const QRect place = n.bounds.translated(window.geometry.topLeft());
        if (!window.geometry.contains(place))
            continue;
        // The zone there: the closest in place.
        qsizetype best = -1;
        double bestIoU = 0;
        for (qsizetype i = 0; i < result.size(); ++i) {
            const Zone& z = result.at(i);
            if (!ofWindow(z) || !isSameZone(z.bounds, place))
                continue;
            const double iou = intersectionOverUnion(z.bounds, place);
            if (iou > bestIoU) {
                best = i;
                bestIoU = iou;
            }
        }
        if (best >= 0) {
            Zone& z = result[best];
            if (!hasAuthoritativeLabel(z)) {
                z.label = n.name;
                z.labelSource = LabelSource::Schema;
            }
            continue;
        }
        Zone z;
        z.id = schemaZoneId(window.id, n.name);
        z.bounds = place;
        z.type = n.type;
        z.label = n.name;
        z.labelSource = LabelSource::Schema;
        z.source = ZoneSource::Schema;
        z.confidence = kSchemaZoneConfidence;
        z.application = window.windowClass;
        z.windowId = window.id;
        z.firstSeenNs = tNs;
        z.lastSeenNs = tNs;
        if (z.isInteractive())
            z.events << QStringLiteral("click");
        if (!coveredByWindowAbove(z, windows))
            result << z;
    }
    return result;
}

} // namespace ciu
