#pragma once

// The AT-SPI backend of the Accessibility interface: a front on the caller's thread over the shared
// AT-SPI thread (AtspiHost), which walks the tree and follows its events.

#include "platform/accessibility.h"

#include <memory>

namespace ciu::platform::atspi {

class AtspiHost;

class AtspiAccessibility final : public Accessibility
{
    Q_OBJECT
public:
    explicit AtspiAccessibility(std::shared_ptr<AtspiHost> host, QObject* parent = nullptr);
    ~AtspiAccessibility() override;

    QString backendName() const override { return QStringLiteral("atspi"); }
    bool isAvailable() const override { return true; }
    QString errorString() const override { return {}; }
    void start() override;
    void refresh() override;
    AccessibilitySnapshotPtr snapshot() const override { return m_snapshot; }

    // From the AT-SPI thread (queued to this object's thread).
    void deliver(const AccessibilitySnapshotPtr& snapshot, const QStringList& changedWindows);

private:
    std::shared_ptr<AtspiHost> m_host;
    AccessibilitySnapshotPtr m_snapshot;
    bool m_started = false;
};

// The AT-SPI backend, or the null one with the reason (no session bus, no accessibility bus).
std::unique_ptr<Accessibility> createAtspiAccessibility(const AccessibilityLimits& limits);

} // namespace ciu::platform::atspi
