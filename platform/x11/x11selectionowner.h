#pragma once

#include "platform/x11/x11selectiondata.h"

#include <QElapsedTimer>
#include <QHash>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <xcb/xcb.h>

namespace ciu::platform::x11 {

// Owns the CLIPBOARD selection for a Platform: a hidden window on a connection of its own, served by
// a small thread, so that other clients can read what we put there while our Platform's thread is busy
// (or blocked reading the clipboard itself). Answers TARGETS, TIMESTAMP and every item of the
// SelectionData, large items incrementally (INCR).
class X11SelectionOwner final
{
public:
    // Connects to `displayName`; check errorString() / isValid().
    explicit X11SelectionOwner(const QString& displayName);
    ~X11SelectionOwner();
    X11SelectionOwner(const X11SelectionOwner&) = delete;
    X11SelectionOwner& operator=(const X11SelectionOwner&) = delete;

    bool isValid() const { return m_alive.load(); }
    // Takes the selection and serves `data` until another client takes it. Waits for the server's
    // answer up to `timeoutMs`.
    bool own(const SelectionData& data, int timeoutMs);
    bool owns() const { return m_owning.load(); }
    quint32 window() const { return m_window; }
    QString errorString() const;

    // Items larger than this go incrementally.
    static constexpr qsizetype kIncrThreshold = 256 * 1024;

private:
    struct Transfer
    {
        xcb_window_t requestor = XCB_NONE;
        xcb_atom_t property = XCB_NONE;
        xcb_atom_t type = XCB_NONE;
        QByteArray data;
        qsizetype offset = 0;
        bool done = false; // the final zero-length chunk was written
        QElapsedTimer idle;
    };

    void run();
    void takeOwnership();
    void handleEvent(const xcb_generic_event_t* event);
    void answerRequest(const xcb_selection_request_event_t* request);
    bool writeTarget(xcb_window_t requestor, xcb_atom_t property, xcb_atom_t target);
    void continueTransfer(xcb_window_t requestor, xcb_atom_t property);
    void expireTransfers();
    xcb_atom_t intern(const QByteArray& name);
    // The server's time now (a zero-length append to our window, the clock brought up to date first);
    // XCB_CURRENT_TIME when the display went away.
    xcb_timestamp_t serverTime();
    void finishRequest(bool ok, const QString& error);

    // Set once in the constructor.
    xcb_connection_t* m_c = nullptr;
    xcb_window_t m_window = XCB_NONE;
    xcb_atom_t m_clipboard = XCB_NONE;
    xcb_atom_t m_targets = XCB_NONE;
    xcb_atom_t m_timestampTarget = XCB_NONE;
    xcb_atom_t m_incr = XCB_NONE;
    xcb_atom_t m_stampProperty = XCB_NONE;
    xcb_atom_t m_atomType = XCB_NONE;
    quint8 m_xfixesEvent = 0; // XFixes' first event code (0: no XFixes)
    int m_wakeFd = -1;
    QString m_displayName;

    // Shared with callers, under m_mutex.
    mutable std::mutex m_mutex;
    std::condition_variable m_done;
    SelectionData m_request;
    quint64 m_requestSeq = 0;
    quint64 m_finishedSeq = 0;
    bool m_lastOk = false;
    QString m_error;
    std::atomic<bool> m_alive{false};
    std::atomic<bool> m_owning{false};
    std::atomic<bool> m_quit{false};

    // Thread only.
    SelectionData m_data;
    QHash<xcb_atom_t, qsizetype> m_itemByTarget;
    xcb_timestamp_t m_ownedSince = 0;
    xcb_timestamp_t m_lastChange = 0; // the time the clipboard last changed hands (XFixes), 0: unknown
    QList<Transfer> m_transfers;
    qsizetype m_chunkBytes = 64 * 1024;
    std::thread m_thread;
};

} // namespace ciu::platform::x11
