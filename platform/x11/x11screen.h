#pragma once

#include "platform/screen.h"
#include "platform/x11/x11connection.h"
#include "platform/x11/x11grabber.h"

namespace ciu::platform::x11 {

// Screen over xcb: root geometry (kept current through RandR screen-change events), RandR monitors,
// DPI, grabs through X11Grabber and XDamage region tracking on the root window.
class X11Screen final : public Screen
{
public:
    explicit X11Screen(X11Connection& conn);
    ~X11Screen() override;

    QSize size() const override;
    QList<MonitorInfo> monitors() const override;
    double dpi() const override;
    QImage grab(const QRect& region) override;
    bool grabInto(QImage& target, QPoint targetOrigin, const QRect& region) override;
    bool damageSupported() const override { return m_damage != 0; }
    QRegion takeDamage() override;
    QString errorString() const override { return m_error; }

    bool usesSharedMemory() const { return m_grabber.usesSharedMemory(); }
    bool hasMonitors() const { return m_conn.extensions().randr; }

private:
    bool fail(const QString& message);
    void handleEvent(const xcb_generic_event_t* event);
    void setupDamage();
    QList<MonitorInfo> randrMonitors() const;

    X11Connection& m_conn;
    X11Grabber m_grabber;
    QSize m_size;
    int m_sizeMm = 0;           // physical width
    quint32 m_damage = 0;       // xcb_damage_damage_t
    quint32 m_damageRegion = 0; // xcb_xfixes_region_t
    bool m_firstDamage = true;
    int m_handlerId = 0;
    QString m_error;
};

} // namespace ciu::platform::x11
