// The command language's canonical form (core/director/commandscript.h): each command written back as text
// that parses again to the same command (fuzz_commandscript checks that round trip).

#include "core/director/commandscript.h"

#include <QRegularExpression>

#include <array>
#include <utility>

namespace ciu {
namespace {

constexpr std::array<std::pair<ScriptCommand::Verb, const char*>, 18> kVerbNames{{
    {ScriptCommand::Verb::Click, "click"},
    {ScriptCommand::Verb::DoubleClick, "double-click"},
    {ScriptCommand::Verb::RightClick, "right-click"},
    {ScriptCommand::Verb::MiddleClick, "middle-click"},
    {ScriptCommand::Verb::TripleClick, "triple-click"},
    {ScriptCommand::Verb::Hover, "hover"},
    {ScriptCommand::Verb::Type, "type"},
    {ScriptCommand::Verb::Press, "press"},
    {ScriptCommand::Verb::Scroll, "scroll"},
    {ScriptCommand::Verb::Drag, "drag"},
    {ScriptCommand::Verb::WaitFor, "wait for"},
    {ScriptCommand::Verb::Wait, "wait"},
    {ScriptCommand::Verb::Launch, "launch"},
    {ScriptCommand::Verb::Check, "check"},
    {ScriptCommand::Verb::Uncheck, "uncheck"},
    {ScriptCommand::Verb::Select, "select"},
    {ScriptCommand::Verb::Append, "append"},
    {ScriptCommand::Verb::Invoke, "invoke"},
}};

QString quoted(const QString& s)
{
    QString escaped = s;
    // A newline would end the quote (the reader's "\n" escape makes it one again).
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('"'), QLatin1String("\\\""))
        .replace(QLatin1Char('\n'), QLatin1String("\\n"));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

} // namespace

QString toString(ScriptCommand::Verb verb)
{
    for (const auto& [v, name] : kVerbNames) {
        if (v == verb)
            return QString::fromLatin1(name);
    }
    return {};
}

QString ScriptCommand::toString() const
{
    const QString v = ciu::toString(verb);
    switch (verb) {
    case Verb::Type:
        return target.isEmpty() ? QStringLiteral("type %1").arg(quoted(text))
                                : QStringLiteral("type %1 into %2").arg(quoted(text), quoted(target));
    case Verb::Append:
        return QStringLiteral("append %1 to %2").arg(quoted(text), quoted(target));
    case Verb::Press: {
        // Each key bare unless the reader would cut it or read it as something else (a separator, a quote,
        // "then"): "press ';'" stays the semicolon key.
        static const QRegularExpression space(QStringLiteral("\\s+"));
        QStringList keys;
        for (const QString& key : text.split(space, Qt::SkipEmptyParts)) {
            const bool unsafe = key.contains(QLatin1Char(';')) || key.contains(QLatin1Char('"')) ||
                                key.startsWith(QLatin1Char('\'')) ||
                                key.compare(QLatin1String("then"), Qt::CaseInsensitive) == 0;
            keys << (unsafe ? quoted(key) : key);
        }
        return QStringLiteral("press ") + keys.join(QLatin1Char(' '));
    }
    case Verb::Scroll: {
        QString s = QStringLiteral("scroll ") + platform::toString(scrollDirection);
        if (amount > 0)
            s += QStringLiteral(" %1").arg(amount);
        if (!target.isEmpty())
            s += QStringLiteral(" in ") + quoted(target);
        return s;
    }
    case Verb::Drag:
        return QStringLiteral("drag %1 to %2").arg(quoted(target), quoted(target2));
    case Verb::WaitFor:
        return QStringLiteral("wait for %1").arg(quoted(text));
    case Verb::Wait:
        return QStringLiteral("wait %1ms").arg(durationMs);
    case Verb::Launch: {
        // Bare unless the reader would cut or change it (a separator, a quote, "then", outer spaces): then
        // the whole command line as one quoted string.
        static const QRegularExpression unsafe(QStringLiteral("[\\n;\"']|\\bthen\\b"),
                                               QRegularExpression::CaseInsensitiveOption);
        return QStringLiteral("launch ") +
               (text != text.trimmed() || text.contains(unsafe) ? quoted(text) : text);
    }
    case Verb::Select:
        return QStringLiteral("select %1 in %2").arg(quoted(text), quoted(target));
    default:
        return v + QLatin1Char(' ') + quoted(target);
    }
}

QString ScriptError::toString() const
{
    return QStringLiteral("line %1, column %2: %3").arg(line).arg(column).arg(message);
}

} // namespace ciu
