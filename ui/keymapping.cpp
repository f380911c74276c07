#include "ui/keymapping.h"

#include "platform/keys.h"

#include <Qt>

#include <array>
#include <utility>

namespace ciu::ui {
namespace {

constexpr std::array<std::pair<int, quint32>, 38> kSpecialKeys{{
    {Qt::Key_Escape, 0xff1b},     {Qt::Key_Tab, 0xff09},      {Qt::Key_Backtab, 0xfe20},
    {Qt::Key_Backspace, 0xff08},  {Qt::Key_Return, 0xff0d},   {Qt::Key_Enter, 0xff8d},
    {Qt::Key_Insert, 0xff63},     {Qt::Key_Delete, 0xffff},   {Qt::Key_Pause, 0xff13},
    {Qt::Key_Print, 0xff61},      {Qt::Key_Home, 0xff50},     {Qt::Key_End, 0xff57},
    {Qt::Key_Left, 0xff51},       {Qt::Key_Up, 0xff52},       {Qt::Key_Right, 0xff53},
    {Qt::Key_Down, 0xff54},       {Qt::Key_PageUp, 0xff55},   {Qt::Key_PageDown, 0xff56},
    {Qt::Key_Shift, 0xffe1},      {Qt::Key_Control, 0xffe3},  {Qt::Key_Meta, 0xffeb},
    {Qt::Key_Alt, 0xffe9},        {Qt::Key_CapsLock, 0xffe5}, {Qt::Key_NumLock, 0xff7f},
    {Qt::Key_ScrollLock, 0xff14}, {Qt::Key_Menu, 0xff67},     {Qt::Key_Space, 0x20},
    {Qt::Key_F1, 0xffbe},         {Qt::Key_F2, 0xffbf},       {Qt::Key_F3, 0xffc0},
    {Qt::Key_F4, 0xffc1},         {Qt::Key_F5, 0xffc2},       {Qt::Key_F6, 0xffc3},
    {Qt::Key_F7, 0xffc4},         {Qt::Key_F8, 0xffc5},       {Qt::Key_F9, 0xffc6},
    {Qt::Key_F10, 0xffc7},        {Qt::Key_F11, 0xffc8},
}};

} // namespace

quint32 keysymForKey(int qtKey, const QString& text, quint32 nativeVirtualKey)
{
    if (nativeVirtualKey != 0)
        return nativeVirtualKey;
    if (qtKey == Qt::Key_F12)
        return 0xffc9;
    for (const auto& [key, keysym] : kSpecialKeys) {
        if (key == qtKey)
            return keysym;
    }
    if (!text.isEmpty() && text.at(0).isPrint()) {
        const char32_t cp = text.toUcs4().value(0);
        return platform::keysymFromCodePoint(cp);
    }
    // Letters with Ctrl held carry control characters as text: use the key code.
    if (qtKey >= Qt::Key_A && qtKey <= Qt::Key_Z)
        return quint32('a' + (qtKey - Qt::Key_A));
    if (qtKey >= Qt::Key_0 && qtKey <= Qt::Key_9)
        return quint32(qtKey);
    return 0;
}

} // namespace ciu::ui
