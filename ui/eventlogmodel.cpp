#include "ui/eventlogmodel.h"

#include "core/model/secrets.h"

#include <QColor>
#include <QLocale>
#include <QPoint>
#include <QRect>

#include <algorithm>
#include <vector>

namespace ciu::ui {

EventLogModel::EventLogModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

int EventLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int EventLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString EventLogModel::formatTime(qint64 tNs)
{
    return QString::number(double(tNs) / 1e9, 'f', 3);
}

namespace {

// One value of an event's data as a person reads it: numbers with at most two decimals, rectangles as
// "W×H+X+Y", points as "X,Y", lists joined with "; ". Empty for nothing worth showing.
QString formatValue(const QVariant& value)
{
    switch (value.typeId()) {
    case QMetaType::UnknownType:
    case QMetaType::Nullptr:
        return {};
    case QMetaType::Double:
    case QMetaType::Float: {
        QString text = QString::number(value.toDouble(), 'f', 2);
        while (text.contains(QLatin1Char('.')) &&
               (text.endsWith(QLatin1Char('0')) || text.endsWith(QLatin1Char('.'))))
            text.chop(1);
        return text;
    }
    case QMetaType::QRect: {
        const QRect r = value.toRect();
        return QStringLiteral("%1×%2+%3+%4").arg(r.width()).arg(r.height()).arg(r.x()).arg(r.y());
    }
    case QMetaType::QPoint: {
        const QPoint p = value.toPoint();
        return QStringLiteral("%1,%2").arg(p.x()).arg(p.y());
    }
    case QMetaType::QVariantMap: {
        const QVariantMap map = value.toMap();
        const auto has = [&map](const char* key) { return map.contains(QLatin1String(key)); };
        if (has("x") && has("y") && has("width") && has("height"))
            return formatValue(QRect(
                map.value(QStringLiteral("x")).toInt(), map.value(QStringLiteral("y")).toInt(),
                map.value(QStringLiteral("width")).toInt(), map.value(QStringLiteral("height")).toInt()));
        if (has("x") && has("y") && map.size() == 2)
            return formatValue(
                QPoint(map.value(QStringLiteral("x")).toInt(), map.value(QStringLiteral("y")).toInt()));
        QStringList parts;
        for (auto it = map.cbegin(); it != map.cend(); ++it) {
            if (const QString v = formatValue(it.value()); !v.isEmpty())
                parts << it.key() + QLatin1Char('=') + v;
        }
        return parts.isEmpty() ? QString()
                               : QLatin1Char('{') + parts.join(QLatin1Char(' ')) + QLatin1Char('}');
    }
    case QMetaType::QVariantList:
    case QMetaType::QStringList: {
        QStringList parts;
        for (const QVariant& item : value.toList()) {
            if (const QString v = formatValue(item); !v.isEmpty())
                parts << v;
        }
        return parts.join(QStringLiteral("; "));
    }
    default:
        return value.toString();
    }
}

// The value with every secret in its text redacted (as on the terminal): strings, string lists, and the
// strings inside lists and maps.
QVariant redactedValue(const QVariant& value)
{
    switch (value.typeId()) {
    case QMetaType::QString:
        return scrubSecrets(value.toString());
    case QMetaType::QByteArray:
        return scrubSecrets(value.toByteArray());
    case QMetaType::QStringList: {
        QStringList list = value.toStringList();
        for (QString& item : list)
            item = scrubSecrets(item);
        return list;
    }
    case QMetaType::QVariantList: {
        QVariantList list = value.toList();
        for (QVariant& item : list)
            item = redactedValue(item);
        return list;
    }
    case QMetaType::QVariantMap: {
        QVariantMap map = value.toMap();
        for (QVariant& item : map)
            item = redactedValue(item);
        return map;
    }
    default:
        return value;
    }
}

} // namespace

SpatialEvent EventLogModel::redacted(SpatialEvent event)
{
    for (QVariant& value : event.data)
        value = redactedValue(value);
    event.zoneId = scrubSecrets(event.zoneId);
    return event;
}

QString EventLogModel::formatDetails(const SpatialEvent& event)
{
    // The keys that say what happened first, the rest in name order.
    static const QStringList first = {QStringLiteral("reason"), QStringLiteral("tier"),
                                      QStringLiteral("action"), QStringLiteral("label"),
                                      QStringLiteral("text"),   QStringLiteral("error")};
    QStringList keys = event.data.keys();
    std::stable_sort(keys.begin(), keys.end(), [](const QString& a, const QString& b) {
        const qsizetype ia = first.indexOf(a), ib = first.indexOf(b);
        return (ia < 0 ? first.size() : ia) < (ib < 0 ? first.size() : ib);
    });
    QStringList parts;
    for (const QString& key : std::as_const(keys)) {
        QString value = formatValue(event.data.value(key));
        if (value.isEmpty())
            continue;
        if (value.size() > 120)
            value = value.left(119) + QChar(0x2026);
        parts << key + QLatin1Char('=') + value;
    }
    if (!event.point.isNull())
        parts.prepend(QStringLiteral("@%1,%2").arg(event.point.x()).arg(event.point.y()));
    return parts.join(QLatin1Char(' '));
}

QString EventLogModel::kindDisplayName(SpatialEvent::Kind kind)
{
    switch (kind) {
    case SpatialEvent::Kind::ZoneEnter:
        return tr("Zone enter");
    case SpatialEvent::Kind::ZoneExit:
        return tr("Zone exit");
    case SpatialEvent::Kind::ZoneHover:
        return tr("Hover");
    case SpatialEvent::Kind::ZoneClick:
        return tr("Click");
    case SpatialEvent::Kind::ZoneType:
        return tr("Typing");
    case SpatialEvent::Kind::BrushLost:
        return tr("Brush lost");
    case SpatialEvent::Kind::Takeover:
        return tr("Takeover");
    case SpatialEvent::Kind::TierDecision:
        return tr("Tier decision");
    case SpatialEvent::Kind::Analysis:
        return tr("Analysis");
    case SpatialEvent::Kind::ModelCall:
        return tr("Model call");
    case SpatialEvent::Kind::Action:
        return tr("Action");
    case SpatialEvent::Kind::Error:
        return tr("Error");
    case SpatialEvent::Kind::Info:
        return tr("Info");
    }
    return {};
}

bool EventLogModel::isRepeat(const SpatialEvent& previous, const SpatialEvent& next)
{
    if (previous.kind != next.kind || previous.zoneId != next.zoneId)
        return false;
    const auto same = [&](const char* key) {
        const QString k = QLatin1String(key);
        return previous.data.value(k) == next.data.value(k);
    };
    switch (next.kind) {
    case SpatialEvent::Kind::TierDecision:
        // The changed region and share differ from frame to frame; the decision is what a reader follows.
        return same("tier") && same("reason") && same("action");
    case SpatialEvent::Kind::ZoneHover:
        return true;
    default:
        return false;
    }
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_events.size()))
        return {};
    const SpatialEvent& e = m_events.at(size_t(index.row()));
    const Repeat& repeat = m_repeats.at(size_t(index.row()));
    if (role == Qt::ToolTipRole && repeat.count > 1)
        return tr("%1 (%n time(s), from %2 s to %3 s)", nullptr, repeat.count)
            .arg(formatDetails(e), formatTime(e.tNs), formatTime(repeat.lastNs));
    if (role == Qt::DisplayRole && index.column() == DetailsColumn && repeat.count > 1)
        return tr("×%1  %2").arg(repeat.count).arg(formatDetails(e));
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case TimeColumn:
            return formatTime(e.tNs);
        case KindColumn:
            return kindDisplayName(e.kind);
        case ZoneColumn:
            return e.zoneId;
        case DetailsColumn:
            return formatDetails(e);
        default:
            return {};
        }
    case Qt::ForegroundRole:
        if (e.kind == SpatialEvent::Kind::Error)
            return QColor(0xc6, 0x28, 0x28);
        if (e.kind == SpatialEvent::Kind::Takeover)
            return QColor(0xe6, 0x51, 0x00);
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == TimeColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case KindRole:
        return int(e.kind);
    case ZoneIdRole:
        return e.zoneId;
    case PointRole:
        return e.point;
    case TimeNsRole:
        return e.tNs;
    case RepeatCountRole:
        return repeat.count;
    case SearchTextRole:
        return QStringList{kindDisplayName(e.kind), toString(e.kind), e.zoneId, formatDetails(e)}.join(
            QLatin1Char(' '));
    default:
        return {};
    }
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time (s)");
    case KindColumn:
        return tr("Kind");
    case ZoneColumn:
        return tr("Zone");
    case DetailsColumn:
        return tr("Details");
    default:
        return {};
    }
}

void EventLogModel::setMaxRows(int maxRows)
{
    m_maxRows = std::max(100, maxRows);
    trim();
}

bool EventLogModel::fold(const SpatialEvent& event)
{
    if (m_events.empty() || !isRepeat(m_events.back(), event))
        return false;
    Repeat& repeat = m_repeats.back();
    ++repeat.count;
    repeat.lastNs = event.tNs;
    const int row = int(m_events.size()) - 1;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    return true;
}

void EventLogModel::appendEvent(const SpatialEvent& shown)
{
    const SpatialEvent event = redacted(shown);
    if (fold(event))
        return;
    const int row = int(m_events.size());
    beginInsertRows({}, row, row);
    m_events.push_back(event);
    m_repeats.push_back({1, event.tNs});
    endInsertRows();
    trim();
}

void EventLogModel::appendEvents(const QList<SpatialEvent>& events)
{
    // One insertion for the batch; repeats fold into the last row or into the batch's own rows.
    std::vector<SpatialEvent> rows;
    std::vector<Repeat> repeats;
    for (const SpatialEvent& shown : events) {
        const SpatialEvent event = redacted(shown);
        if (rows.empty() && fold(event))
            continue;
        if (!rows.empty() && isRepeat(rows.back(), event)) {
            ++repeats.back().count;
            repeats.back().lastNs = event.tNs;
            continue;
        }
        rows.push_back(event);
        repeats.push_back({1, event.tNs});
    }
    if (rows.empty())
        return;
    const int row = int(m_events.size());
    beginInsertRows({}, row, row + int(rows.size()) - 1);
    m_events.insert(m_events.end(), rows.cbegin(), rows.cend());
    m_repeats.insert(m_repeats.end(), repeats.cbegin(), repeats.cend());
    endInsertRows();
    trim();
}

void EventLogModel::clear()
{
    beginResetModel();
    m_events.clear();
    m_repeats.clear();
    endResetModel();
}

void EventLogModel::trim()
{
    if (int(m_events.size()) <= m_maxRows)
        return;
    // Drop a tenth more than needed so that trimming is rare.
    const int drop = std::min(int(m_events.size()), int(m_events.size()) - m_maxRows + m_maxRows / 10);
    beginRemoveRows({}, 0, drop - 1);
    m_events.erase(m_events.begin(), m_events.begin() + drop);
    m_repeats.erase(m_repeats.begin(), m_repeats.begin() + drop);
    endRemoveRows();
}

// EventLogFilterModel

EventLogFilterModel::EventLogFilterModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
}

void EventLogFilterModel::setKindFilter(std::optional<SpatialEvent::Kind> kind)
{
    if (kind == m_kind)
        return;
    m_kind = kind;
    invalidateFilter();
}

void EventLogFilterModel::setTextFilter(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    invalidateFilter();
}

bool EventLogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_kind && index.data(EventLogModel::KindRole).toInt() != int(*m_kind))
        return false;
    if (m_text.isEmpty())
        return true;
    return index.data(EventLogModel::SearchTextRole).toString().contains(m_text, Qt::CaseInsensitive);
}

} // namespace ciu::ui
