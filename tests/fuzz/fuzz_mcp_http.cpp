// libFuzzer target: the MCP Streamable HTTP transport's request reader (core/mcp/httptransport.h,
// HttpRequestParser), fed the bytes of one connection cut into reads (the first byte sets the read size).

#include "core/mcp/httptransport.h"
#include "tests/fuzz/fuzzsupport.h"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    ciu::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using ciu::mcp::HttpRequestParser;
    HttpRequestParser parser;
    for (const QByteArray& read : ciu::fuzz::chunks(ciu::fuzz::bytes(data, size))) {
        const HttpRequestParser::State state = parser.feed(read);
        if (state == HttpRequestParser::State::Failed) {
            if (parser.errorStatus() < 400 || parser.errorStatus() > 599 || parser.errorString().isEmpty())
                abort(); // a failed request is answered with an error status and a reason
            break;
        }
        if (state == HttpRequestParser::State::Complete) {
            const ciu::mcp::HttpRequest& request = parser.request();
            if (request.method.isEmpty() || request.body.size() > HttpRequestParser::kMaxBodyBytes)
                abort();
            request.header("content-type");
            break;
        }
    }
    return 0;
}
