// libFuzzer target: the local planner's command language (core/director/commandscript.h). Every command
// parsed is written back in its canonical form, which must parse again to the same command.

#include "core/director/commandscript.h"
#include "platform/keys.h"
#include "tests/fuzz/fuzzsupport.h"

namespace {

bool sameCommand(const ciu::ScriptCommand& a, const ciu::ScriptCommand& b)
{
    // Keys are compared as the keys they press ("press  ctrl+s" and "press ctrl+s" are the same command).
    const bool sameText =
        a.verb == ciu::ScriptCommand::Verb::Press
            ? ciu::platform::parseKeySequence(a.text).combos == ciu::platform::parseKeySequence(b.text).combos
            : a.text == b.text;
    return a.verb == b.verb && a.target == b.target && a.target2 == b.target2 && sameText &&
           a.scrollDirection == b.scrollDirection && a.amount == b.amount && a.durationMs == b.durationMs;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    ciu::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString script = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    const ciu::ScriptParseResult result = ciu::parseScript(script);
    if (!result.ok()) {
        const ciu::ScriptError& error = *result.error;
        if (error.message.isEmpty() || error.line < 1 || error.column < 1 || error.position < 0 ||
            error.position > script.size())
            abort();
        error.toString();
        return 0;
    }
    if (result.commands.size() > ciu::kMaxScriptCommands)
        abort();
    for (const ciu::ScriptCommand& command : result.commands) {
        if (command.durationMs < 0 || command.durationMs > ciu::kMaxWaitMs || command.amount < 0 ||
            command.amount > ciu::kMaxScrollClicks)
            abort();
        const ciu::ScriptParseResult again = ciu::parseScript(command.toString());
        if (!again.ok() || again.commands.size() != 1 || !sameCommand(again.commands.constFirst(), command))
            abort();
    }
    return 0;
}
