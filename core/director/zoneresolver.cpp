#include "core/director/zoneresolver.h"

#include "core/model/geometry.h"

#include <QRegularExpression>

#include <algorithm>
#include <vector>

namespace ciu {
namespace {

// Two boxes of one thing: nearly the same box, or the smaller (a text's tight box) almost all inside the
// larger (the label widget's box from the tree).
bool sameBox(const QRect& a, const QRect& b)
{
    if (intersectionOverUnion(a, b) >= ZoneResolver::kSameBoxIou)
        return true;
    const bool aSmaller = area(a) <= area(b);
    return shareInside(aSmaller ? a : b, aSmaller ? b : a) >= 0.8;
}

double typeBonus(const Zone& zone, ZoneResolver::Purpose purpose)
{
    const bool interactive = zone.isInteractive();
    switch (purpose) {
    case ZoneResolver::Purpose::Click:
        return interactive ? 0.06 : 0.0;
    case ZoneResolver::Purpose::TypeInto:
        return zone.type == ZoneType::TextField ? 0.1 : interactive ? 0.03 : 0.0;
    case ZoneResolver::Purpose::Toggle:
        return zone.type == ZoneType::CheckBox ? 0.1 : interactive ? 0.03 : 0.0;
    case ZoneResolver::Purpose::Dropdown:
        return zone.type == ZoneType::Dropdown ? 0.1 : interactive ? 0.03 : 0.0;
    case ZoneResolver::Purpose::Option:
        return zone.type == ZoneType::MenuItem ? 0.08 : interactive ? 0.05 : 0.0;
    case ZoneResolver::Purpose::Scroll:
        return zone.type == ZoneType::ScrollArea ? 0.1 : interactive ? 0.03 : 0.0;
    case ZoneResolver::Purpose::Any:
        return interactive ? 0.02 : 0.0;
    }
    return 0;
}

QString describe(const Zone& z)
{
    return QStringLiteral("%1 %2 \"%3\" at (%4, %5)")
        .arg(z.id, toString(z.type), z.label)
        .arg(z.center().x())
        .arg(z.center().y());
}

// The field a static label names: the nearest editable zone (a text field, a drop-down, anything the
// tree calls editable) to its right on the same row, else the nearest just below it. A label to the left
// of its field is the common layout of forms in every toolkit; a label above its field the other one.
bool isEditable(const Zone& z)
{
    return z.type == ZoneType::TextField || z.type == ZoneType::Dropdown ||
           (z.state.testFlag(ZoneStateFlag::Editable) && z.type != ZoneType::Static);
}

std::optional<Zone> fieldForLabel(const Zone& label, const ZoneMap& map)
{
    const Zone* right = nullptr;
    int rightDistance = 0;
    const Zone* below = nullptr;
    int belowDistance = 0;
    const QRect l = label.bounds;
    for (const Zone& z : map.zones()) {
        if (!isEditable(z) || z.id == label.id)
            continue;
        const QRect f = z.bounds;
        const bool sameRow = f.top() <= l.center().y() && f.bottom() >= l.center().y();
        if (sameRow && f.left() >= l.left() + l.width() / 2) {
            const int distance = std::max(0, f.left() - l.right());
            if (distance <= 400 && (!right || distance < rightDistance)) {
                right = &z;
                rightDistance = distance;
            }
            continue;
        }
        const bool isBelow = f.top() >= l.center().y() &&
                             f.top() - l.bottom() <= 2 * std::max(l.height(), 10) && f.left() <= l.right() &&
                             f.right() >= l.left();
        if (isBelow) {
            const int distance = std::max(0, f.top() - l.bottom());
            if (!below || distance < belowDistance) {
                below = &z;
                belowDistance = distance;
            }
        }
    }
    if (right)
        return *right;
    if (below)
        return *below;
    return std::nullopt;
}

// The list a label names: the smallest list that holds it (a column's header inside its table), else one
// that starts just below it (a caption over a list box).
std::optional<Zone> listForLabel(const Zone& label, const ZoneMap& map)
{
    const QRect l = label.bounds;
    const Zone* best = nullptr;
    for (const Zone& z : map.zones()) {
        if (z.type != ZoneType::ScrollArea || z.id == label.id || z.bounds.width() < 2 * l.height() ||
            z.bounds.height() < 2 * l.height())
            continue; // a scroll bar is no list
        const QRect f = z.bounds;
        const bool holds = f.contains(l.center());
        const bool below = f.top() >= l.center().y() &&
                           f.top() - l.bottom() <= 2 * std::max(l.height(), 10) && f.left() <= l.right() &&
                           f.right() >= l.left();
        if ((holds || below) && (!best || area(f) < area(best->bounds)))
            best = &z;
    }
    return best ? std::optional<Zone>(*best) : std::nullopt;
}

} // namespace

QString ZoneResolver::symbolForm(const QString& label)
{
    // Names made only of symbols ("+", "=", "÷", "(", "...") are compared as written, with the usual
    // look-alikes folded together (what OCR and people type for the same key).
    QString s = label;
    s.remove(QLatin1Char('&'));
    s = s.simplified();
    s.remove(QLatin1Char(' '));
    s.replace(QChar(0x2212), QLatin1Char('-'));      // minus sign
    s.replace(QChar(0x2013), QLatin1Char('-'));      // en dash
    s.replace(QChar(0x00D7), QLatin1Char('*'));      // multiplication sign
    s.replace(QChar(0x00F7), QLatin1Char('/'));      // division sign
    s.replace(QChar(0x2026), QStringLiteral("...")); // ellipsis
    return s;
}

QString ZoneResolver::normalize(const QString& label)
{
    QString s = label.toLower();
    s.remove(QLatin1Char('&'));
    QString out;
    out.reserve(s.size());
    for (const QChar c : std::as_const(s))
        out += c.isLetterOrNumber() ? c : QChar(QLatin1Char(' '));
    return out.simplified();
}

int ZoneResolver::editDistance(const QString& a, const QString& b)
{
    const qsizetype n = a.size();
    const qsizetype m = b.size();
    std::vector<int> previous(size_t(m + 1));
    std::vector<int> current(size_t(m + 1));
    for (qsizetype j = 0; j <= m; ++j)
        previous[size_t(j)] = int(j);
    for (qsizetype i = 1; i <= n; ++i) {
        current[0] = int(i);
        for (qsizetype j = 1; j <= m; ++j) {
            const int cost = a.at(i - 1) == b.at(j - 1) ? 0 : 1;
            current[size_t(j)] = std::min(
                {previous[size_t(j)] + 1, current[size_t(j - 1)] + 1, previous[size_t(j - 1)] + cost});
        }
        std::swap(previous, current);
    }
    return previous[size_t(m)];
}

bool ZoneResolver::elidedFrom(const QString& query, const QString& label)
{
    // The cut: "…" or three dots or more, with text on both sides (a trailing "…" is as often a menu's
    // "opens a dialog" as a cut end, so it counts for nothing here).
    static const QRegularExpression cut(QStringLiteral("\\.{3,}|\u2026"));
    const QRegularExpressionMatch m = cut.match(label);
    if (!m.hasMatch() || label.indexOf(cut, m.capturedEnd()) >= 0)
        return false;
    const QString head = normalize(label.left(m.capturedStart()));
    const QString tail = normalize(label.mid(m.capturedEnd()));
    const QString q = normalize(query);
    if (head.isEmpty() || tail.isEmpty() || head.size() + tail.size() < kElidedMinKept)
        return false;
    // What the cut hid is at least one character (joined to the kept parts or a word of its own).
    return q.size() > head.size() + tail.size() && q.startsWith(head) && q.endsWith(tail);
}

double ZoneResolver::similarity(const QString& query, const QString& label)
{
    const QString q = normalize(query);
    const QString l = normalize(label);
    if (q.isEmpty()) {
        // A symbol name matches only a label that is the same symbol.
        const QString sq = symbolForm(query);
        return !sq.isEmpty() && normalize(label).isEmpty() && symbolForm(label) == sq ? 1.0 : 0.0;
    }
    if (l.isEmpty())
        return 0;
    if (q == l)
        return 1.0;
    if (elidedFrom(query, label))
        return kElidedScore;
    auto ratio = [](const QString& a, const QString& b) {
        const qsizetype longest = std::max(a.size(), b.size());
        return longest == 0 ? 1.0 : 1.0 - double(editDistance(a, b)) / double(longest);
    };
    double best = ratio(q, l);
    // Every word of the query appears among the label's words (fuzzily): "Save" in "Save As…" scores lower
    // than an exact "Save", "File Manager" matches "File Manager (3)".
    const QStringList qt = q.split(QLatin1Char(' '));
    const QStringList lt = l.split(QLatin1Char(' '));
    double sum = 0;
    bool all = true;
    for (const QString& w : qt) {
        double wordBest = 0;
        for (const QString& x : lt)
            wordBest = std::max(wordBest, ratio(w, x));
        all = all && wordBest >= 0.75;
        sum += wordBest;
    }
    if (all) {
        const double coverage = double(qt.size()) / double(std::max(qt.size(), lt.size()));
        best = std::max(best, (sum / double(qt.size())) * (0.8 + 0.12 * coverage));
    }
    return std::min(best, 0.99);
}

ZoneResolver::Result ZoneResolver::resolve(const QString& name, const ZoneMap& map, Purpose purpose,
                                           const QList<platform::WindowInfo>& windows)
{
    Result r;
    const QString trimmed = name.trimmed();
    if (trimmed.startsWith(QLatin1Char('#')) && trimmed.size() > 1 && !trimmed.contains(QLatin1Char(' '))) {
        const QString id = trimmed.mid(1);
        if (const Zone* z = map.find(id)) {
            r.zone = *z;
            r.score = 1;
            return r;
        }
        r.error = QStringLiteral("no zone has the id \"%1\" (the map has %2 zones)").arg(id).arg(map.size());
        return r;
    }
    if (symbolForm(trimmed).isEmpty()) {
        r.error = QStringLiteral("\"%1\" is not a usable zone name").arg(name);
        return r;
    }

    std::vector<Candidate> all;
    for (const Zone& z : map.zones()) {
        const double s = similarity(trimmed, z.label);
        if (s <= 0 || coveredByWindowAbove(z, windows))
            continue;
        // A tooltip's text (a temporary zone) names what it describes; it is nothing to act on, and it goes
        // as the pointer moves. It may only be waited for.
        if (z.temporary && purpose != Purpose::Any)
            continue;
        // The type preference ranks matches; it never makes a poor label match good enough.
        all.push_back({z, s >= kMinScore ? s + typeBonus(z, purpose) : s});
    }
    std::stable_sort(all.begin(), all.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score > b.score; });

    // A static text zone lying inside a matching interactive zone is the same control (the OCR'd caption
    // of a button): keep only the control.
    std::vector<Candidate> matches;
    for (const Candidate& c : all) {
        if (c.score < kMinScore)
            continue;
        bool inner = false;
        if (!c.zone.isInteractive()) {
            for (const Candidate& o : all) {
                if (o.score >= kMinScore && o.zone.isInteractive() && o.zone.bounds.contains(c.zone.bounds))
                    inner = true;
            }
        }
        if (inner)
            continue;
        // The same thing seen twice (the tree's label and the OCR'd text of it, or two analyses a pixel
        // apart): one candidate, the tree's when there is one.
        bool duplicate = false;
        for (Candidate& m : matches) {
            if (m.zone.type == c.zone.type && normalize(m.zone.label) == normalize(c.zone.label) &&
                sameBox(m.zone.bounds, c.zone.bounds)) {
                if (c.zone.source == ZoneSource::Accessibility && m.zone.source != ZoneSource::Accessibility)
                    m = c;
                duplicate = true;
                break;
            }
        }
        if (!duplicate)
            matches.push_back(c);
    }
    for (qsizetype i = 0; i < qsizetype(all.size()) && r.candidates.size() < 5; ++i)
        r.candidates.append(all[size_t(i)]);

    if (matches.empty()) {
        QStringList closest;
        for (const Candidate& c : std::as_const(r.candidates)) {
            if (c.score >= 0.3)
                closest << describe(c.zone);
        }
        r.error = closest.isEmpty() ? QStringLiteral("no zone matches \"%1\"").arg(trimmed)
                                    : QStringLiteral("no zone matches \"%1\"; closest: %2")
                                          .arg(trimmed, closest.mid(0, 3).join(QStringLiteral("; ")));
        return r;
    }
    r.candidates.clear();
    for (qsizetype i = 0; i < qsizetype(matches.size()) && i < 5; ++i)
        r.candidates.append(matches[size_t(i)]);

    // A label written exactly as asked, one equal but for case (and mnemonics, punctuation), or fuzzy.
    const auto exactness = [&trimmed](const Zone& z) {
        QString label = z.label.trimmed();
        label.remove(QLatin1Char('&'));
        if (label == trimmed)
            return 2;
        return normalize(z.label) == normalize(trimmed) ? 1 : 0;
    };
    r.exactness = exactness(matches.front().zone);
    const Candidate* chosen = &matches.front();
    if (matches.size() > 1 && chosen->score - matches[1].score < kTieMargin) {
        // Among the tied, a label written exactly as asked wins, then one equal but for case (and mnemonics,
        // punctuation): "Page 2" picks the tab "Page 2" over four tabs "page 2".
        const double top = chosen->score;
        int bestExactness = 0;
        int atBest = 0;
        for (const Candidate& c : matches) {
            if (top - c.score >= kTieMargin)
                continue;
            const int e = exactness(c.zone);
            if (e > bestExactness) {
                bestExactness = e;
                atBest = 1;
                chosen = &c;
            } else if (e == bestExactness && e > 0) {
                ++atBest;
            }
        }
        if (bestExactness == 0 || atBest != 1)
            chosen = nullptr;
    }
    if (!chosen) {
        const Candidate& best = matches.front();
        QStringList tied;
        for (const Candidate& c : matches) {
            if (best.score - c.score < kTieMargin)
                tied << describe(c.zone);
        }
        r.ambiguous = true;
        r.error = QStringLiteral("\"%1\" is ambiguous: %2 (name one by id, e.g. \"#%3\")")
                      .arg(trimmed, tied.join(QStringLiteral("; ")), best.zone.id);
        return r;
    }
    const Candidate& best = *chosen;
    r.zone = best.zone;
    r.score = best.score;
    r.exactness = exactness(best.zone);
    // A name that matched something one cannot type into (a static label, or a label vision took for a
    // tab or a button: Tk's "File name:") stands for the field it labels.
    const bool typesInto = purpose == Purpose::TypeInto && !isEditable(best.zone);
    if (typesInto || (purpose == Purpose::Click && best.zone.type == ZoneType::Static)) {
        if (auto field = fieldForLabel(best.zone, map)) {
            r.matchedZone = best.zone;
            r.zone = *field;
        }
    }
    if (purpose == Purpose::Dropdown && best.zone.type == ZoneType::Static) {
        if (auto field = fieldForLabel(best.zone, map); field && field->type == ZoneType::Dropdown) {
            r.matchedZone = best.zone;
            r.zone = *field;
        } else if (auto list = listForLabel(best.zone, map)) { // a list box: its caption or column header
            r.matchedZone = best.zone;
            r.zone = *list;
        }
    }
    return r;
}

} // namespace ciu
