#pragma once

#include "core/director/planbackend.h"
#include "core/model/action.h"
#include "core/model/zonemap.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace ciu {

// A zone as a recorded sequence names it: never an id or coordinates (they change between runs), but what
// can be found again in another zone map — the label and type, and for an unlabelled zone (a text field)
// the caption beside or above it ("Name:").
struct ZoneRef
{
    QString label;
    std::optional<ZoneType> type;
    QString caption;

    bool isEmpty() const { return label.isEmpty() && caption.isEmpty() && !type; }
    QJsonObject toJson() const;
    static std::optional<ZoneRef> fromJson(const QJsonObject& object, QString* error);
    // The reference for a zone of `map` (its caption found among the map's static labels).
    static ZoneRef of(const Zone& zone, const ZoneMap& map);
    // The zone of `map` this reference names, or nullopt and *error (missing, other type, ambiguous).
    std::optional<Zone> resolve(const ZoneMap& map, QString* error) const;
    QString describe() const; // button "OK", text_field beside "Name:"
};

// One action of a successful task, as replayable on another run.
struct RecordedStep
{
    Action action; // zone ids and raw points removed
    ZoneRef target;
    ZoneRef end;   // drag target
    ZoneRef focus; // typing: the zone that received the text
    Expectation expect;

    QJsonObject toJson() const;
    static std::optional<RecordedStep> fromJson(const QJsonObject& object, QString* error);
    // The step for an executed action aimed at zones of `mapBefore`; nullopt when it cannot be recorded
    // (raw coordinates without a zone, a zone missing from the map).
    static std::optional<RecordedStep> from(const ProposedAction& proposed, const ZoneMap* mapBefore);
};

struct RecordedSequence
{
    static constexpr int kFormatVersion = 1;
    QString task;           // as given
    QString normalizedTask; // SequenceLibrary::normalizeTask(task)
    QString planner;        // who found it: "anthropic", "openai", "local"
    QDateTime recordedAt;
    QList<RecordedStep> steps;

    QJsonObject toJson() const;
    static std::optional<RecordedSequence> fromJson(const QJsonObject& object, QString* error);
};

// The MAX speed mode's library of successful action sequences ("recording of
// successful actions, reuse of similar past tasks"): one JSON file a task under
// $XDG_DATA_HOME/ciu-agent/sequences/ (CIU_SEQUENCES_DIR overrides it), written atomically.
//
// Similarity: two tasks match when their normalised forms are equal — lower case, punctuation dropped,
// white space folded, the filler words "please", "the", "a", "an", "then", "and" removed — except that
// quoted text ("Ada") is kept exactly as written, since it is what gets typed. So "Click OK, then Submit."
// matches "click ok submit", but `type "Ada" into Name` does not match `type "ada" into Name`. The file
// name is a hash of the normalised form, so a lookup reads one file.
class SequenceLibrary
{
public:
    // dir empty: the default location.
    explicit SequenceLibrary(QString dir = {});

    static QString defaultDirectory();
    static QString normalizeTask(const QString& task);
    QString directory() const { return m_dir; }
    QString pathFor(const QString& task) const;

    // The stored sequence for a task like this one. A corrupt or unreadable file gives nullopt and a
    // *warning naming the file (it is ignored, never deleted).
    std::optional<RecordedSequence> find(const QString& task, QString* warning = nullptr) const;
    // Stores (replaces) the sequence of its task atomically; false and *error on failure.
    bool store(const RecordedSequence& sequence, QString* error = nullptr) const;

private:
    QString m_dir;
};

} // namespace ciu
