#pragma once

#include <QString>
#include <QtGlobal>

namespace ciu::ui {

// The X keysym for a key event of the live view (takeover input forwarding). On X11 Qt reports the
// keysym as the native virtual key; elsewhere (offscreen, Wayland) the Qt key and text are mapped.
// Returns 0 for keys without a keysym.
quint32 keysymForKey(int qtKey, const QString& text, quint32 nativeVirtualKey);

} // namespace ciu::ui
