#include "ui/controllers/ownwindowtracker.h"

#include <QApplication>
#include <QWidget>

namespace ciu::ui {
namespace {

QString normalizedDisplay(QString name)
{
    name = name.trimmed();
    const int colon = int(name.lastIndexOf(QLatin1Char(':')));
    const int dot = int(name.indexOf(QLatin1Char('.'), colon < 0 ? 0 : colon));
    if (dot > colon && colon >= 0)
        name.truncate(dot);
    return name;
}

} // namespace

OwnWindowTracker::OwnWindowTracker(QString backend, QString targetDisplay, QObject* parent)
    : QObject(parent)
    , m_backend(std::move(backend))
    , m_target(std::move(targetDisplay))
{
    m_timer.setInterval(500);
    connect(&m_timer, &QTimer::timeout, this, &OwnWindowTracker::update);
    m_timer.start();
}

void OwnWindowTracker::setTargetDisplay(const QString& displayName)
{
    m_target = displayName;
    update();
}

bool OwnWindowTracker::targetIsOwnDisplay() const
{
    if (QGuiApplication::platformName() != QLatin1String("xcb"))
        return false;
    const QString backend =
        m_backend.isEmpty() ? qEnvironmentVariable("CIU_PLATFORM").toLower() : m_backend.toLower();
    if (!backend.isEmpty() && backend != QLatin1String("x11"))
        return false;
    return sameDisplay(m_target, qEnvironmentVariable("DISPLAY"));
}

bool OwnWindowTracker::sameDisplay(const QString& a, const QString& b)
{
    return normalizedDisplay(a) == normalizedDisplay(b);
}

OwnWindowTracker::Regions OwnWindowTracker::regionsOf(const QList<QWidget*>& widgets)
{
    Regions regions;
    for (QWidget* w : widgets) {
        if (!w->isVisible() || w->isMinimized())
            continue;
        regions.rects << w->frameGeometry();
        regions.ids << quint64(w->winId());
    }
    return regions;
}

void OwnWindowTracker::update()
{
    const Regions regions = targetIsOwnDisplay() ? regionsOf(QApplication::topLevelWidgets()) : Regions();
    if (regions == m_regions)
        return;
    m_regions = regions;
    emit regionsChanged(m_regions.rects, m_regions.ids);
}

} // namespace ciu::ui
