// libFuzzer target: the Claude Messages API reply parsers (core/providers/anthropicprovider.h): a whole body,
// a streamed reply and an error body (see providerfuzz.h for the input's layout).

#include "core/providers/anthropicprovider.h"
#include "tests/fuzz/providerfuzz.h"

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    ciu::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static ciu::director::AnthropicProvider provider{ciu::director::ProviderConfig{}};
    return ciu::fuzz::fuzzProvider(provider, data, size);
}
