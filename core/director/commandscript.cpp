#include "core/director/commandscript.h"

#include "platform/keys.h"

#include <QRegularExpression>

#include <cmath>
#include <utility>

namespace ciu {
namespace {

struct Token
{
    enum class Kind : quint8
    {
        Word = 1,
        String,
        Separator
    };
    Kind kind = Kind::Word;
    QString text;
    int position = 0;
    int end = 0; // one past the last character
    bool is(const char* word) const
    {
        return kind == Kind::Word && text.compare(QLatin1String(word), Qt::CaseInsensitive) == 0;
    }
};

// The verbs and their aliases (the canonical names are in commandscriptwriter.cpp).
std::optional<ScriptCommand::Verb> verbFromWord(const QString& word)
{
    const QString w = word.toLower();
    static const QList<std::pair<QString, ScriptCommand::Verb>> aliases = {
        {QStringLiteral("click"), ScriptCommand::Verb::Click},
        {QStringLiteral("left-click"), ScriptCommand::Verb::Click},
        {QStringLiteral("double-click"), ScriptCommand::Verb::DoubleClick},
        {QStringLiteral("doubleclick"), ScriptCommand::Verb::DoubleClick},
        {QStringLiteral("right-click"), ScriptCommand::Verb::RightClick},
        {QStringLiteral("rightclick"), ScriptCommand::Verb::RightClick},
        {QStringLiteral("middle-click"), ScriptCommand::Verb::MiddleClick},
        {QStringLiteral("triple-click"), ScriptCommand::Verb::TripleClick},
        {QStringLiteral("hover"), ScriptCommand::Verb::Hover},
        {QStringLiteral("move"), ScriptCommand::Verb::Hover},
        {QStringLiteral("type"), ScriptCommand::Verb::Type},
        {QStringLiteral("enter"), ScriptCommand::Verb::Type},
        {QStringLiteral("press"), ScriptCommand::Verb::Press},
        {QStringLiteral("key"), ScriptCommand::Verb::Press},
        {QStringLiteral("scroll"), ScriptCommand::Verb::Scroll},
        {QStringLiteral("drag"), ScriptCommand::Verb::Drag},
        {QStringLiteral("wait"), ScriptCommand::Verb::Wait},
        {QStringLiteral("launch"), ScriptCommand::Verb::Launch},
        {QStringLiteral("run"), ScriptCommand::Verb::Launch},
        {QStringLiteral("check"), ScriptCommand::Verb::Check},
        {QStringLiteral("tick"), ScriptCommand::Verb::Check},
        {QStringLiteral("uncheck"), ScriptCommand::Verb::Uncheck},
        {QStringLiteral("untick"), ScriptCommand::Verb::Uncheck},
        {QStringLiteral("select"), ScriptCommand::Verb::Select},
        {QStringLiteral("invoke"), ScriptCommand::Verb::Invoke},
        {QStringLiteral("choose"), ScriptCommand::Verb::Select},
        {QStringLiteral("append"), ScriptCommand::Verb::Append},
    };
    for (const auto& [name, verb] : aliases) {
        if (w == name)
            return verb;
    }
    return std::nullopt;
}

class Parser
{
public:
    explicit Parser(const QString& script)
        : m_script(script)
    {
    }

    ScriptParseResult run()
    {
        ScriptParseResult result;
        if (!tokenize(result))
            return result;
        QList<Token> command;
        for (const Token& t : std::as_const(m_tokens)) {
            if (t.kind == Token::Kind::Separator) {
                if (!command.isEmpty() && !parseCommand(command, result))
                    return result;
                command.clear();
            } else {
                command.append(t);
            }
        }
        if (!command.isEmpty())
            parseCommand(command, result);
        if (result.ok() && result.commands.isEmpty())
            result.error = error(0, QStringLiteral("the script has no commands"));
        return result;
    }

private:
    ScriptError error(int position, const QString& message) const
    {
        ScriptError e;
        e.position = position;
        e.message = message;
        const QStringView before = QStringView(m_script).left(position);
        e.line = int(before.count(QLatin1Char('\n'))) + 1;
        e.column = int(position - (before.lastIndexOf(QLatin1Char('\n')) + 1)) + 1;
        return e;
    }

    bool tokenize(ScriptParseResult& result)
    {
        const int n = int(m_script.size());
        int i = 0;
        bool atCommandStart = true;
        while (i < n) {
            const QChar c = m_script.at(i);
            if (c == QLatin1Char('\n') || c == QLatin1Char(';')) {
                m_tokens.append({Token::Kind::Separator, QString(c), i, i + 1});
                atCommandStart = true;
                ++i;
                continue;
            }
            if (c.isSpace()) {
                ++i;
                continue;
            }
            if (atCommandStart && c == QLatin1Char('#') && (i + 1 >= n || m_script.at(i + 1).isSpace())) {
                while (i < n && m_script.at(i) != QLatin1Char('\n'))
                    ++i;
                continue;
            }
            atCommandStart = false;
            if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
                const int start = i;
                QString text;
                ++i;
                bool closed = false;
                while (i < n) {
                    const QChar d = m_script.at(i);
                    if (d == QLatin1Char('\\') && i + 1 < n) {
                        const QChar e = m_script.at(i + 1);
                        text += e == QLatin1Char('n')   ? QChar(QLatin1Char('\n'))
                                : e == QLatin1Char('t') ? QChar(QLatin1Char('\t'))
                                                        : e;
                        i += 2;
                        continue;
                    }
                    if (d == c) {
                        closed = true;
                        ++i;
                        break;
                    }
                    if (d == QLatin1Char('\n'))
                        break;
                    text += d;
                    ++i;
                }
                if (!closed) {
                    result.error = error(start, QStringLiteral("unterminated quote %1").arg(c));
                    return false;
                }
                m_tokens.append({Token::Kind::String, text, start, i});
                continue;
            }
            const int start = i;
            while (i < n) {
                const QChar d = m_script.at(i);
                if (d.isSpace() || d == QLatin1Char(';') || d == QLatin1Char('"'))
                    break;
                ++i;
            }
            Token t{Token::Kind::Word, m_script.mid(start, i - start), start, i};
            if (t.is("then")) {
                t.kind = Token::Kind::Separator;
                atCommandStart = true;
            }
            m_tokens.append(t);
        }
        return true;
    }

    // Reads a name starting at `i` up to one of `stops` (bare words) or one quoted string.
    std::optional<QString> name(const QList<Token>& tokens, int& i, const QStringList& stops,
                                const QString& what, ScriptParseResult& result)
    {
        while (i < tokens.size() && (tokens.at(i).is("on") || tokens.at(i).is("the")) &&
               i + 1 < tokens.size())
            ++i;
        if (i >= tokens.size()) {
            result.error =
                error(tokens.isEmpty() ? 0 : tokens.last().end, QStringLiteral("expected %1").arg(what));
            return std::nullopt;
        }
        if (tokens.at(i).kind == Token::Kind::String) {
            const QString s = tokens.at(i).text;
            if (s.trimmed().isEmpty()) {
                result.error = error(tokens.at(i).position, QStringLiteral("%1 is empty").arg(what));
                return std::nullopt;
            }
            ++i;
            return s;
        }
        QStringList words;
        while (i < tokens.size() && tokens.at(i).kind == Token::Kind::Word) {
            bool stop = false;
            for (const QString& s : stops)
                stop = stop || tokens.at(i).text.compare(s, Qt::CaseInsensitive) == 0;
            if (stop)
                break;
            words << tokens.at(i).text;
            ++i;
        }
        if (words.isEmpty()) {
            result.error = error(i < tokens.size() ? tokens.at(i).position : tokens.last().end,
                                 QStringLiteral("expected %1").arg(what));
            return std::nullopt;
        }
        return words.join(QLatin1Char(' '));
    }

    bool expectEnd(const QList<Token>& tokens, int i, ScriptParseResult& result)
    {
        if (i < tokens.size()) {
            result.error =
                error(tokens.at(i).position, QStringLiteral("unexpected \"%1\"").arg(tokens.at(i).text));
            return false;
        }
        return true;
    }

    // "2s", "2 s", "500ms", "1.5 seconds" starting at i.
    std::optional<int> duration(const QList<Token>& tokens, int& i, ScriptParseResult& result)
    {
        static const QRegularExpression re(
            QStringLiteral("^(\\d+(?:\\.\\d+)?)(ms|s|sec|secs|second|seconds)?$"),
            QRegularExpression::CaseInsensitiveOption);
        if (i >= tokens.size() || tokens.at(i).kind != Token::Kind::Word) {
            result.error = error(i < tokens.size() ? tokens.at(i).position : tokens.last().end,
                                 QStringLiteral("expected a duration such as 2s or 500ms"));
            return std::nullopt;
        }
        const Token& t = tokens.at(i);
        const auto m = re.match(t.text);
        if (!m.hasMatch()) {
            result.error =
                error(t.position, QStringLiteral("\"%1\" is not a duration such as 2s or 500ms").arg(t.text));
            return std::nullopt;
        }
        ++i;
        QString unit = m.captured(2).toLower();
        if (unit.isEmpty() && i < tokens.size() && tokens.at(i).kind == Token::Kind::Word) {
            const QString next = tokens.at(i).text.toLower();
            if (next == QLatin1String("ms") || next.startsWith(QLatin1String("s"))) {
                unit = next;
                ++i;
            }
        }
        const double value = m.captured(1).toDouble();
        QString why;
        const auto ms = boundedDurationMs(value, unit == QLatin1String("ms") ? 1.0 : 1000.0, &why);
        if (!ms) {
            result.error = error(t.position, why);
            return std::nullopt;
        }
        return ms;
    }

    bool parseCommand(const QList<Token>& tokens, ScriptParseResult& result)
    {
        if (result.commands.size() >= kMaxScriptCommands) {
            result.error =
                error(tokens.first().position,
                      QStringLiteral("a script is limited to %1 commands").arg(kMaxScriptCommands));
            return false;
        }
        const Token& head = tokens.first();
        ScriptCommand c;
        c.position = head.position;
        c.source = m_script.mid(head.position, tokens.last().end - head.position);
        const auto verb = head.kind == Token::Kind::Word ? verbFromWord(head.text) : std::nullopt;
        if (!verb) {
            result.error = error(
                head.position, QStringLiteral("unknown command \"%1\" (expected click, double-click, "
                                              "right-click, type, append, press, scroll, drag, wait, launch, "
                                              "check, uncheck, select or hover)")
                                   .arg(head.text));
            return false;
        }
        c.verb = *verb;
        int i = 1;
        const QString afterVerb = QStringLiteral("a zone name after \"%1\"").arg(head.text);
        switch (c.verb) {
        case ScriptCommand::Verb::Click:
        case ScriptCommand::Verb::DoubleClick:
        case ScriptCommand::Verb::RightClick:
        case ScriptCommand::Verb::MiddleClick:
        case ScriptCommand::Verb::TripleClick:
        case ScriptCommand::Verb::Hover:
        case ScriptCommand::Verb::Check:
        case ScriptCommand::Verb::Uncheck:
        case ScriptCommand::Verb::Invoke: {
            if (c.verb == ScriptCommand::Verb::Hover && head.is("move")) {
                if (i < tokens.size() && (tokens.at(i).is("to") || tokens.at(i).is("over")))
                    ++i;
            }
            const auto target = name(tokens, i, {}, afterVerb, result);
            if (!target)
                return false;
            c.target = *target;
            if (!expectEnd(tokens, i, result))
                return false;
            break;
        }
        case ScriptCommand::Verb::Type: {
            const auto text = name(tokens, i, {QStringLiteral("into"), QStringLiteral("in")},
                                   QStringLiteral("the text to type after \"%1\"").arg(head.text), result);
            if (!text)
                return false;
            c.text = *text;
            if (i < tokens.size() && (tokens.at(i).is("into") || tokens.at(i).is("in"))) {
                ++i;
                const auto target = name(tokens, i, {}, QStringLiteral("a zone name after \"into\""), result);
                if (!target)
                    return false;
                c.target = *target;
            }
            if (!expectEnd(tokens, i, result))
                return false;
            break;
        }
        case ScriptCommand::Verb::Append: {
            // append "X" to F
            const auto text = name(tokens, i, {QStringLiteral("to"), QStringLiteral("into")},
                                   QStringLiteral("the text to append after \"%1\"").arg(head.text), result);
            if (!text)
                return false;
            c.text = *text;
            if (i >= tokens.size() || !(tokens.at(i).is("to") || tokens.at(i).is("into"))) {
                result.error = error(i < tokens.size() ? tokens.at(i).position : head.position,
                                     QStringLiteral("expected \"to\" and a field after the text to append"));
                return false;
            }
            ++i;
            const auto target = name(tokens, i, {}, QStringLiteral("a zone name after \"to\""), result);
            if (!target)
                return false;
            c.target = *target;
            if (!expectEnd(tokens, i, result))
                return false;
            break;
        }
        case ScriptCommand::Verb::Press: {
            if (i >= tokens.size()) {
                result.error = error(
                    head.end, QStringLiteral("expected a key such as ctrl+s after \"%1\"").arg(head.text));
                return false;
            }
            QStringList keys;
            for (; i < tokens.size(); ++i)
                keys << tokens.at(i).text;
            c.text = keys.join(QLatin1Char(' '));
            const auto parsed = platform::parseKeySequence(c.text);
            if (!parsed.ok()) {
                result.error = error(tokens.at(1).position,
                                     QStringLiteral("bad key \"%1\": %2").arg(c.text, parsed.error));
                return false;
            }
            break;
        }
        case ScriptCommand::Verb::Scroll: {
            if (i >= tokens.size() || tokens.at(i).kind != Token::Kind::Word ||
                !platform::scrollDirectionFromString(tokens.at(i).text.toLower())) {
                result.error = error(i < tokens.size() ? tokens.at(i).position : head.end,
                                     QStringLiteral("expected up, down, left or right after \"scroll\""));
                return false;
            }
            c.scrollDirection = *platform::scrollDirectionFromString(tokens.at(i).text.toLower());
            ++i;
            if (i < tokens.size() && tokens.at(i).kind == Token::Kind::Word &&
                tokens.at(i).text.at(0).isDigit()) {
                bool ok = false;
                c.amount = tokens.at(i).text.toInt(&ok);
                if (!ok || c.amount < 1 || c.amount > kMaxScrollClicks) {
                    result.error = error(tokens.at(i).position,
                                         QStringLiteral("scroll amount must be 1..%1").arg(kMaxScrollClicks));
                    return false;
                }
                ++i;
                if (i < tokens.size() && (tokens.at(i).is("times") || tokens.at(i).is("clicks")))
                    ++i;
            }
            if (i < tokens.size() &&
                (tokens.at(i).is("in") || tokens.at(i).is("on") || tokens.at(i).is("over"))) {
                ++i;
                const auto target = name(tokens, i, {}, QStringLiteral("a zone name after \"in\""), result);
                if (!target)
                    return false;
                c.target = *target;
            }
            if (!expectEnd(tokens, i, result))
                return false;
            break;
        }
        case ScriptCommand::Verb::Drag: {
            const auto from =
                name(tokens, i, {QStringLiteral("to"), QStringLiteral("onto")}, afterVerb, result);
            if (!from)
                return false;
            c.target = *from;
            if (i >= tokens.size() || !(tokens.at(i).is("to") || tokens.at(i).is("onto"))) {
                result.error = error(i < tokens.size() ? tokens.at(i).position : tokens.last().end,
                                     QStringLiteral("expected \"to\" and a destination in \"drag A to B\""));
                return false;
            }
            ++i;
            const auto to = name(tokens, i, {}, QStringLiteral("a destination after \"to\""), result);
            if (!to)
                return false;
            c.target2 = *to;
            if (!expectEnd(tokens, i, result))
                return false;
            break;
        }
        case ScriptCommand::Verb::Wait:
        case ScriptCommand::Verb::WaitFor: {
            if (i < tokens.size() && tokens.at(i).is("for")) {
                ++i;
                // "wait for 2s" is a plain wait, "wait for Saved" waits for text.
                static const QRegularExpression number(QStringLiteral("^\\d"));
                if (i < tokens.size() && tokens.at(i).kind == Token::Kind::Word &&
                    number.match(tokens.at(i).text).hasMatch()) {
                    const auto ms = duration(tokens, i, result);
                    if (!ms)
                        return false;
                    c.durationMs = *ms;
                } else {
                    c.verb = ScriptCommand::Verb::WaitFor;
                    const auto text = name(tokens, i, {QStringLiteral("up"), QStringLiteral("within")},
                                           QStringLiteral("the text to wait for"), result);
                    if (!text)
                        return false;
                    c.text = *text;
                    c.durationMs = 10'000;
                    if (i < tokens.size() && (tokens.at(i).is("up") || tokens.at(i).is("within"))) {
                        if (tokens.at(i).is("up") && i + 1 < tokens.size() && tokens.at(i + 1).is("to"))
                            ++i;
                        ++i;
                        const auto ms = duration(tokens, i, result);
                        if (!ms)
                            return false;
                        c.durationMs = *ms;
                    }
                }
            } else {
                const auto ms = duration(tokens, i, result);
                if (!ms)
                    return false;
                c.durationMs = *ms;
            }
            if (!expectEnd(tokens, i, result))
                return false;
            break;
        }
        case ScriptCommand::Verb::Launch: {
            if (i >= tokens.size()) {
                result.error =
                    error(head.end, QStringLiteral("expected a program after \"%1\"").arg(head.text));
                return false;
            }
            c.text = m_script.mid(tokens.at(i).position, tokens.last().end - tokens.at(i).position).trimmed();
            if (tokens.size() == 2 && tokens.at(1).kind == Token::Kind::String)
                c.text = tokens.at(1).text;
            if (c.text.trimmed().isEmpty()) { // launch "" (found with fuzz_commandscript)
                result.error = error(tokens.at(i).position, QStringLiteral("the program to launch is empty"));
                return false;
            }
            break;
        }
        case ScriptCommand::Verb::Select: {
            const auto option = name(tokens, i, {QStringLiteral("in"), QStringLiteral("from")},
                                     QStringLiteral("an option after \"%1\"").arg(head.text), result);
            if (!option)
                return false;
            c.text = *option;
            if (i >= tokens.size() || !(tokens.at(i).is("in") || tokens.at(i).is("from"))) {
                result.error =
                    error(i < tokens.size() ? tokens.at(i).position : tokens.last().end,
                          QStringLiteral("expected \"in\" and a dropdown in \"select OPTION in DROPDOWN\""));
                return false;
            }
            ++i;
            const auto target = name(tokens, i, {}, QStringLiteral("a dropdown name after \"in\""), result);
            if (!target)
                return false;
            c.target = *target;
            if (!expectEnd(tokens, i, result))
                return false;
            break;
        }
        }
        result.commands.append(c);
        return true;
    }

    const QString& m_script;
    QList<Token> m_tokens;
};

} // namespace

ScriptParseResult parseScript(const QString& script)
{
    return Parser(script).run();
}

std::optional<int> boundedDurationMs(double value, double unitMs, QString* error)
{
    const bool seconds = unitMs >= 1000.0;
    const QString unit = seconds ? QStringLiteral("s") : QStringLiteral("ms");
    const double shown = value;
    const double ms = value * unitMs;
    if (!std::isfinite(ms) || ms < 0) {
        if (error)
            *error = QStringLiteral("duration %1 %2 is not a length of time (0..%3 s)")
                         .arg(shown)
                         .arg(unit)
                         .arg(kMaxWaitMs / 1000);
        return std::nullopt;
    }
    if (ms > kMaxWaitMs) {
        if (error)
            *error = QStringLiteral("duration %1 %2 is longer than the limit of %3 s")
                         .arg(shown)
                         .arg(unit)
                         .arg(kMaxWaitMs / 1000);
        return std::nullopt;
    }
    return int(std::lround(ms));
}

} // namespace ciu
