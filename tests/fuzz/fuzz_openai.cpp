// libFuzzer target: the OpenAI-compatible chat completions and embeddings reply parsers
// (core/providers/openaiprovider.h): a whole body (also as an embeddings reply), a streamed reply and an
// error body (see providerfuzz.h for the input's layout).

#include "core/providers/openaiprovider.h"
#include "tests/fuzz/providerfuzz.h"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    ciu::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static ciu::director::OpenAiProvider provider{ciu::director::ProviderConfig{}};
    return ciu::fuzz::fuzzProvider(provider, data, size);
}
