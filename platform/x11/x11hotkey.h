#pragma once

#include "platform/hotkey.h"
#include "platform/keys.h"

namespace ciu::platform {

// XGrabKey on the root window over a private xcb connection, read through a socket notifier.
GlobalHotkeyResult createX11GlobalHotkey(const QString& sequence, const KeyCombo& combo,
                                         const QString& displayName);

} // namespace ciu::platform
