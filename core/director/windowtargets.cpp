#include "core/director/windowtargets.h"

#include <algorithm>

namespace ciu {

int WindowTargets::exactness(const QString& name, const QString& label)
{
    QString l = label.trimmed();
    l.remove(QLatin1Char('&'));
    QString n = name.trimmed();
    if (!n.isEmpty() && l == n)
        return 2;
    const QString nn = ZoneResolver::normalize(n);
    return !nn.isEmpty() && ZoneResolver::normalize(l) == nn ? 1 : 0;
}

QString WindowTargets::describe(const platform::WindowInfo& w)
{
    return QStringLiteral("0x%1 \"%2\" (%3)").arg(w.id, 0, 16).arg(w.title, w.windowClass);
}

WindowTargets::Result WindowTargets::resolve(const QString& name, const QList<platform::WindowInfo>& windows,
                                             qint64 ownPid)
{
    Result r;
    QList<Match> matches;
    for (const platform::WindowInfo& w : windows) {
        if (ownPid > 0 && w.pid == ownPid)
            continue; // never the agent's own window
        Match best;
        best.window = w;
        for (const QString& label : {w.title, w.windowClass, w.instance}) {
            if (label.trimmed().isEmpty())
                continue;
            const double s = ZoneResolver::similarity(name, label);
            if (s < ZoneResolver::kMinScore)
                continue;
            const int e = exactness(name, label);
            if (e > best.exactness || (e == best.exactness && s > best.score)) {
                best.exactness = e;
                best.score = s;
                best.matchedName = label;
            }
        }
        if (best.score >= ZoneResolver::kMinScore)
            matches.append(best);
    }
    if (matches.isEmpty()) {
        r.error = QStringLiteral("no window matches \"%1\"").arg(name.trimmed());
        return r;
    }
    std::stable_sort(matches.begin(), matches.end(), [](const Match& a, const Match& b) {
        return a.exactness != b.exactness ? a.exactness > b.exactness : a.score > b.score;
    });
    const Match& top = matches.constFirst();
    QStringList tied;
    for (const Match& m : std::as_const(matches)) {
        if (m.exactness == top.exactness && top.score - m.score < ZoneResolver::kTieMargin)
            tied << describe(m.window);
    }
    if (tied.size() > 1) {
        r.ambiguous = true;
        r.error = QStringLiteral("\"%1\" names %2 windows: %3")
                      .arg(name.trimmed())
                      .arg(tied.size())
                      .arg(tied.join(QStringLiteral("; ")));
        return r;
    }
    r.match = top;
    return r;
}

bool WindowTargets::isTitleBarText(const Zone& zone, const platform::WindowInfo& window)
{
    const QRect client = window.geometry;
    if (client.isEmpty() || zone.isInteractive())
        return false;
    const QRect z = zone.bounds;
    // A window manager's title bar: above the client area, at most a few lines high, within its width.
    constexpr int kTitleBand = 48;
    return z.bottom() <= client.top() + 2 && z.top() >= client.top() - kTitleBand &&
           z.center().x() >= client.left() && z.center().x() <= client.right();
}

bool WindowTargets::prefersWindow(const ZoneResolver::Result& zone, const Match& window)
{
    if (!zone.zone) // no zone matches (the window is meant), or several: the window when it matches as well
        return !zone.ambiguous || window.exactness >= zone.exactness;
    if (isTitleBarText(zone.matchedZone.value_or(*zone.zone), window.window))
        return true;
    return window.exactness > zone.exactness;
}

} // namespace ciu
