// libFuzzer target: key names and key chords (platform/keys.h), as the local language's "press", the
// model's key actions and the MCP key tool pass them. Every key parsed must have a name that resolves
// back to it.

#include "platform/keys.h"
#include "tests/fuzz/fuzzsupport.h"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    ciu::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ciu::platform;
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data), qsizetype(size));
    const KeyParseResult result = parseKeySequence(text);
    if (!result.ok() && !result.combos.isEmpty())
        abort(); // an error leaves no half-parsed sequence to press
    for (const KeyCombo& combo : result.combos) {
        for (const Keysym modifier : combo.modifiers)
            isModifier(modifier);
        const QString name = keysymName(combo.key);
        if (name.isEmpty() || keysymFromName(name) != combo.key)
            abort();
        keysymToText(combo.key);
    }
    keysymFromName(text);
    for (const QChar c : text)
        keysymToText(keysymFromCodePoint(c.unicode()));
    return 0;
}
