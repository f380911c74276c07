#pragma once

// Shared by fuzz_anthropic and fuzz_openai: a provider's reply parsing driven with fuzzed bytes the way the
// network delivers them. The first byte picks what the bytes are: a whole 2xx body, an event stream cut into
// reads (the second byte sets the read size), or an error body (the second byte sets the HTTP status). A
// whole body is also parsed as an embeddings reply.

#include "core/providers/provider.h"
#include "tests/fuzz/fuzzsupport.h"

namespace ciu::fuzz {

// The parsing members are protected (the network code calls them); this names them for the fuzzer without
// changing the class. Never instantiated.
struct ProviderAccess : director::Provider
{
    using director::Provider::createStreamHandler;
    using director::Provider::errorMessageFromBody;
    using director::Provider::parseEmbeddingsBody;
    using director::Provider::parseResponseBody;
};

// Touches everything a caller reads from a response, so a bad value is used the way the Director uses it.
inline void consume(const director::ProviderResponse& response)
{
    const QString text = response.text();
    const QList<director::ContentBlock> uses = response.toolUses();
    const director::Message message = response.assistantMessage();
    if (text.size() < 0 || uses.size() > response.content.size() ||
        message.blocks.size() != response.content.size())
        abort();
}

inline int fuzzProvider(director::Provider& provider, const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    const int mode = data[0] % 3;
    const QByteArray rest = bytes(data + 1, size - 1);
    if (mode == 0) {
        director::ProviderResponse response;
        QString error;
        if ((provider.*(&ProviderAccess::parseResponseBody))(rest, response, &error))
            consume(response);
        // The same body as an embeddings reply for 1-4 texts: exactly that many vectors of one dimension.
        const qsizetype count = 1 + qsizetype(rest.size() % 4);
        director::ProviderResponse vectors;
        if ((provider.*(&ProviderAccess::parseEmbeddingsBody))(rest, count, vectors, &error)) {
            if (vectors.embeddings.size() != count)
                abort();
            for (const QList<double>& v : std::as_const(vectors.embeddings)) {
                if (v.isEmpty() || v.size() != vectors.embeddings.first().size())
                    abort();
            }
        }
    } else if (mode == 1) {
        const std::unique_ptr<director::Provider::StreamHandler> stream =
            (provider.*(&ProviderAccess::createStreamHandler))();
        bool ok = true;
        for (const QByteArray& read : chunks(rest)) {
            director::ProviderError kind = director::ProviderError::None;
            QString error;
            if (!stream->feed(read, &kind, &error)) {
                ok = false;
                break;
            }
            stream->takeTextDelta();
        }
        director::ProviderResponse response;
        QString error;
        if (ok && stream->finish(response, &error))
            consume(response);
    } else {
        const int status = 400 + int(static_cast<unsigned char>(rest.at(0))) % 200;
        const QString message = (provider.*(&ProviderAccess::errorMessageFromBody))(status, rest.mid(1));
        if (message.size() > 100'000)
            abort(); // an error message is one line for a human, whatever the body
    }
    return 0;
}

} // namespace ciu::fuzz
