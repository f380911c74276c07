#pragma once

#include "core/model/zonemap.h"

#include <QList>
#include <QString>

#include <optional>

namespace ciu {

// Resolves a name a person (or the local planner) uses for a zone against the zone labels of a ZoneMap:
// case-insensitive, tolerant of OCR slips (normalized edit distance, token match), preferring exact
// matches and interactive zones of the kind the verb needs. "#z12" names a zone by id.
class ZoneResolver
{
public:
    // What the caller is going to do with the zone: zones of the preferred types win ties.
    enum class Purpose : quint8
    {
        Click = 1, // any interactive zone
        TypeInto,  // text fields (a static label resolves to the field beside or below it)
        Toggle,    // check boxes
        Dropdown,  // dropdowns
        Option,    // an item of an open list or menu
        Scroll,    // scroll areas
        Any,       // static text too (wait for "Saved")
    };

    struct Candidate
    {
        Zone zone;
        double score = 0; // 0..1 label similarity plus the type preference
    };

    struct Result
    {
        std::optional<Zone> zone;
        QString error; // set when zone is empty: missing or ambiguous, with candidates
        bool ambiguous = false;
        QList<Candidate> candidates; // best first (at most 5)
        double score = 0;
        // How the matched label is written: 2 exactly as asked, 1 equal but for case (and mnemonics,
        // punctuation), 0 a fuzzy match. Set for an ambiguous name too (its best candidate's).
        int exactness = 0;
        // The zone whose label matched, when `zone` is another: the field a static label names.
        std::optional<Zone> matchedZone;
    };

    // `windows` (stacking order, bottom first; may be empty): a zone a window above its own covers is not
    // seen, so no candidate (a toolbar button under a modal dialog is not the dialog's button of that name).
    static Result resolve(const QString& name, const ZoneMap& map, Purpose purpose = Purpose::Click,
                          const QList<platform::WindowInfo>& windows = {});

    // Label similarity in 0..1 (1: equal after normalisation). A label the toolkit cut in its middle
    // ("28 Nov…:57:05", a long file name in a dialog) matches the whole name it was cut from at
    // kElidedScore.
    static double similarity(const QString& query, const QString& label);
    // `label` is `query` with its middle cut out and marked "…" (or "..."): the text before and after the
    // cut (kElidedMinKept characters at least, after normalize()) begins and ends the query.
    static bool elidedFrom(const QString& query, const QString& label);
    // Lower case, '&' mnemonics and trailing ':' / '…' removed, punctuation to spaces, spaces collapsed.
    static QString normalize(const QString& label);
    // A name of symbols only, as compared: "×" → "*", "÷" → "/", "−" → "-", spaces and "&" removed.
    static QString symbolForm(const QString& label);
    // Levenshtein distance.
    static int editDistance(const QString& a, const QString& b);

    static constexpr double kMinScore = 0.72;
    static constexpr double kElidedScore = 0.95; // below an exact label of the whole name
    static constexpr qsizetype kElidedMinKept = 4;
    static constexpr double kTieMargin = 0.03;
    static constexpr double kSameBoxIou = 0.6; // two boxes this alike with one label are one zone
};

} // namespace ciu
