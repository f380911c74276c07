// libFuzzer target: the server-sent event parser of the providers (core/providers/sseparser.h). The first
// byte picks where the stream is cut into reads; the events must be the same for every cut.

#include "core/providers/sseparser.h"
#include "tests/fuzz/fuzzsupport.h"

using ciu::director::SseParser;

namespace {

QList<SseParser::Event> parseAll(const QList<QByteArray>& reads)
{
    SseParser parser;
    QList<SseParser::Event> events;
    for (const QByteArray& read : reads)
        events += parser.feed(read);
    events += parser.flush();
    if (parser.hasPartialData())
        abort(); // flush() must leave nothing behind
    return events;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    ciu::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input = ciu::fuzz::bytes(data, size);
    const QList<QByteArray> reads = ciu::fuzz::chunks(input);
    const QList<SseParser::Event> cut = parseAll(reads);
    const QList<SseParser::Event> whole = parseAll({reads.isEmpty() ? QByteArray() : reads.join()});
    if (cut.size() != whole.size())
        abort();
    for (qsizetype i = 0; i < cut.size(); ++i) {
        if (cut.at(i).event != whole.at(i).event || cut.at(i).data != whole.at(i).data)
            abort();
    }
    return 0;
}
