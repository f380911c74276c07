#pragma once

#include "core/brush/brushsettings.h"

#include <QPoint>

#include <optional>

namespace ciu {

// The brush's rule for who owns the pointer. It remembers where the brush last put the pointer and judges
// every pointer reading against it: a pointer pushed into the fail-safe corner trips the fail-safe (which
// stays tripped until reset), a pointer farther than lostTolerancePx from where the brush left it means the
// human took over. It also keeps the brush's own moves out of the fail-safe corner. Pure state, no I/O:
// BrushController reads the pointer and acts on the verdict.
class PointerGuard final
{
public:
    enum class Verdict : quint8
    {
        Ok = 1,
        FailSafe,       // the pointer just reached the corner: trip the fail-safe now
        FailSafeActive, // the fail-safe was tripped before and is not reset
        Takeover,       // the pointer is not where the brush put it
    };

    void setSettings(const BrushSettings& settings) { m_settings = settings; }

    Verdict check(QPoint pos) const;
    bool inFailSafeCorner(QPoint pos) const;
    // `pos`, pushed sideways out of the fail-safe corner when it is inside (the brush never enters it).
    QPoint outsideFailSafeCorner(QPoint pos) const;

    bool isFailSafeTriggered() const { return m_failSafe; }
    void setFailSafeTriggered(bool triggered) { m_failSafe = triggered; }

    // Where the brush last put the pointer (nullopt: nowhere known, nothing to compare against).
    std::optional<QPoint> lastCommanded() const { return m_lastCommanded; }
    void setLastCommanded(std::optional<QPoint> pos) { m_lastCommanded = pos; }

private:
    BrushSettings m_settings;
    std::optional<QPoint> m_lastCommanded;
    bool m_failSafe = false;
};

} // namespace ciu
