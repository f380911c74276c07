#pragma once

#include "platform/x11/x11connection.h"
#include "platform/x11/x11screeninfo.h"

#include <QImage>
#include <QRect>

namespace ciu::platform::x11 {

struct ShmSegment;

// Reads root-window pixels, MIT-SHM when the server allows it, else plain GetImage (said once, as a
// warning). Regions must already be clipped to the screen.
//
// With MIT-SHM, large grab()s are zero-copy: the server writes into a shared segment that the returned
// QImage wraps, and the segment goes back to a small pool when the last copy of that QImage is gone
// (from any thread). When every pooled segment is still held by someone, the grab lands in a staging
// segment and is copied into a new QImage. grabInto() always goes through the staging segment.
class X11Grabber final
{
public:
    explicit X11Grabber(X11Connection& conn);
    ~X11Grabber();
    X11Grabber(const X11Grabber&) = delete;
    X11Grabber& operator=(const X11Grabber&) = delete;

    bool usesSharedMemory() const { return !m_shmDisabled; }
    QImage grab(const QRect& rootRect);
    // Copies `rootRect` into `target` at `targetPos` (Format_RGB32, detached, large enough).
    bool grabInto(QImage& target, QPoint targetPos, const QRect& rootRect);
    QString errorString() const { return m_error; }

    // Segments lent out to QImages at most; grabs beyond that are copied.
    static constexpr int kMaxLentSegments = 4;
    // Grabs smaller than this are copied (cheap) rather than lent.
    static constexpr qsizetype kZeroCopyMinBytes = 256 * 1024;

private:
    bool initFormat();
    qsizetype fullScreenBytes(const QRect& rootRect) const;
    ShmSegment* createSegment(qsizetype bytes);
    void releaseSegment(ShmSegment* segment);
    ShmSegment* lendableSegment(qsizetype bytes);
    void disableShm(const QString& reason);
    bool shmGetImage(ShmSegment* segment, const QRect& rootRect);
    bool grabPlain(QImage& target, QPoint targetPos, const QRect& rootRect);
    bool fail(const QString& message);

    X11Connection& m_conn;
    std::optional<PixelLayout> m_layout;
    int m_bitsPerPixel = 32;
    int m_scanlinePad = 32;
    bool m_shmDisabled = false;
    ShmSegment* m_staging = nullptr;
    QList<ShmSegment*> m_lendable;
    QString m_error;
};

} // namespace ciu::platform::x11
