// The AT-SPI backend's front: attaches to the shared AT-SPI thread and re-emits its snapshots here.

#include "platform/atspi/atspiaccessibility.h"

#include "platform/atspi/atspihost.h"
#include "platform/atspi/atspilog.h"

namespace ciu::platform::atspi {

AtspiAccessibility::AtspiAccessibility(std::shared_ptr<AtspiHost> host, QObject* parent)
    : Accessibility(parent)
    , m_host(std::move(host))
    , m_snapshot(std::make_shared<const AccessibilitySnapshot>())
{
}

AtspiAccessibility::~AtspiAccessibility()
{
    m_host->detach(this);
}

void AtspiAccessibility::start()
{
    if (m_started)
        return;
    m_started = true;
    m_host->attach(this);
}

void AtspiAccessibility::refresh()
{
    start();
    m_host->requestWalk();
}

void AtspiAccessibility::deliver(const AccessibilitySnapshotPtr& snapshot, const QStringList& changedWindows)
{
    if (m_snapshot && snapshot->version <= m_snapshot->version && m_snapshot->version != 0)
        return; // an older one delivered late
    m_snapshot = snapshot;
    Q_EMIT snapshotChanged(snapshot, changedWindows);
}

std::unique_ptr<Accessibility> createAtspiAccessibility(const AccessibilityLimits& limits)
{
    QString error;
    std::shared_ptr<AtspiHost> host = AtspiHost::acquire(limits, &error);
    if (!host) {
        qCWarning(lcAtspi).noquote() << "accessibility off:" << error
                                     << "- zones come from vision only (see README, \"Accessibility\")";
        return std::make_unique<NullAccessibility>(error);
    }
    return std::make_unique<AtspiAccessibility>(std::move(host));
}

} // namespace ciu::platform::atspi
