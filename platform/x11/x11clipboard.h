#pragma once

#include "platform/clipboard.h"
#include "platform/x11/x11connection.h"
#include "platform/x11/x11selectionowner.h"

#include <memory>

namespace ciu::platform::x11 {

// The CLIPBOARD selection: reads with ConvertSelection on the Platform's connection (INCR included),
// writes by handing the content to an X11SelectionOwner thread that serves it.
class X11Clipboard final : public Clipboard
{
public:
    explicit X11Clipboard(X11Connection& conn);
    ~X11Clipboard() override;

    std::optional<QString> text(int timeoutMs = 1000) override;
    std::optional<QImage> image(int timeoutMs = 1000) override;
    bool setText(const QString& text) override;
    bool setImage(const QImage& image) override;
    QString errorString() const override { return m_error; }

private:
    struct Converted
    {
        QByteArray data;
        xcb_atom_t type = XCB_NONE;
    };

    bool fail(const QString& message);
    bool ensureRequestor();
    bool hasOwner();
    std::optional<Converted> convert(const QByteArray& target, int timeoutMs);
    std::optional<Converted> readIncremental(int timeoutMs);
    bool own(const SelectionData& data);

    X11Connection& m_conn;
    xcb_window_t m_requestor = XCB_NONE;
    xcb_atom_t m_clipboard = XCB_NONE;
    xcb_atom_t m_property = XCB_NONE;
    std::unique_ptr<X11SelectionOwner> m_owner;
    QString m_error;
};

} // namespace ciu::platform::x11
