#pragma once

#include "platform/accessibility.h"
#include "platform/hotkey.h"
#include "platform/platform.h"

namespace ciu::platform {

// The one place that picks a backend.
PlatformResult createPlatform(const PlatformOptions& options = {});
QStringList availableBackends();

// Grabs `sequence` (one combo, xdotool syntax) on the display of `options` (backend chosen like
// createPlatform()). The synthetic backend returns a hotkey that only fires through triggerForTest().
GlobalHotkeyResult createGlobalHotkey(const QString& sequence, const PlatformOptions& options = {});

// The accessibility tree of the session's programs: AT-SPI (backend "atspi"), or the null backend
// ("none", or when there is no bus: one warning, the reason in errorString()). $CIU_ACCESSIBILITY picks
// the backend when `options.backend` is empty. Never null.
std::unique_ptr<Accessibility> createAccessibility(const AccessibilityOptions& options = {});

// Fires a hotkey made by the synthetic backend (no-op for others).
void triggerForTest(GlobalHotkey& hotkey);

} // namespace ciu::platform
