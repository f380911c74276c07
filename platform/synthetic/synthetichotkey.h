#pragma once

#include "platform/hotkey.h"

namespace ciu::platform {

// The synthetic backend's hotkey: grabs nothing, fires only through trigger() (triggerForTest()).
class SyntheticGlobalHotkey final : public GlobalHotkey
{
    Q_OBJECT
public:
    explicit SyntheticGlobalHotkey(QString sequence)
        : m_sequence(std::move(sequence))
    {
    }
    QString sequence() const override { return m_sequence; }
    QString errorString() const override { return {}; }
    void trigger() { emit activated(); }

private:
    QString m_sequence;
};

} // namespace ciu::platform
