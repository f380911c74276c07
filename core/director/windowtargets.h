#pragma once

// Windows as targets of a step: `type "ls" into xterm`, `click Mousepad`. A name is matched against each
// top-level window's title and WM_CLASS (class and instance) like zone names (exact before
// case-insensitive before fuzzy), and weighed against the zone of the same name (chooseTarget).

#include "core/director/zoneresolver.h"
#include "platform/types.h"

#include <QList>
#include <QString>

#include <optional>

namespace ciu {

class WindowTargets final
{
public:
    struct Match
    {
        platform::WindowInfo window;
        double score = 0;    // label similarity 0..1 of its best name
        int exactness = 0;   // 2: a name written exactly as asked, 1: equal but for case, 0: fuzzy
        QString matchedName; // the title, class or instance that matched
    };
    struct Result
    {
        std::optional<Match> match;
        QString error; // set when no single window matches (ambiguous: the tied windows)
        bool ambiguous = false;
    };

    // How a name matches a label: 2 written exactly so (mnemonic '&' ignored), 1 equal after
    // normalisation (case, punctuation), 0 otherwise.
    static int exactness(const QString& name, const QString& label);

    // The window `name` means among `windows`; the agent's own windows (process `ownPid`) never match.
    static Result resolve(const QString& name, const QList<platform::WindowInfo>& windows, qint64 ownPid);

    // Whether the step means the window rather than the zone: when no zone matches, when the window's name
    // matches more exactly (exact > case-insensitive > fuzzy) than the zone's label, or when the zone is the
    // window's own title drawn in its frame (static text just above the client area). A zone matching as
    // exactly as the window wins: it is what the program shows, and naming the window by its class or
    // exact title picks the window.
    static bool prefersWindow(const ZoneResolver::Result& zone, const Match& window);

    // Whether `zone` is the title of `window` drawn by the window manager: static text lying in the band
    // just above the window's client area.
    static bool isTitleBarText(const Zone& zone, const platform::WindowInfo& window);

    // A window as steps and messages name it: `0x1a00003 "Title" (Class)`.
    static QString describe(const platform::WindowInfo& window);
};

} // namespace ciu
