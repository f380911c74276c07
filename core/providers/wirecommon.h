#pragma once

#include "core/providers/provider.h"
#include "core/providers/providertypes.h"
#include "core/providers/sseparser.h"

#include <QJsonObject>

// Helpers shared by the providers' wire formats (internal).
namespace ciu::director::wire {

// The text that replaces an image dropped from the history.
QString omittedImagePlaceholder();

// The scaler of the request's computer tool (identity when there is none).
ScreenshotScaler scalerFor(const ProviderRequest& request);

// The messages with only the `keep` most recent images (top level and inside tool results); older ones
// replaced by a text placeholder. keep < 0: unchanged.
QList<Message> limitImages(const QList<Message>& messages, int keep);

struct EncodedImage
{
    QByteArray data; // encoded bytes (not base64)
    QString mediaType;
};
// Encodes an image block for the wire: a full-screen QImage is scaled with the scaler, any other image
// fitted within the service limits; pre-encoded bytes are sent as they are (media type sniffed if empty).
std::optional<EncodedImage> encodeImage(const ContentBlock& block, const ScreenshotScaler& scaler,
                                        ProviderRequest::ImageFormat format, int jpegQuality, QString* error);
QString sniffMediaType(const QByteArray& data);

// A whole response body as a JSON object, or nullopt and *error ("the body is not a JSON object (…)").
std::optional<QJsonObject> parseBodyObject(const QByteArray& body, QString* error);
// A JSON text that must be an object (streamed or string tool arguments); nullopt when it is not.
std::optional<QJsonObject> parseObjectText(const QString& text);
// A token count from a reply's usage: untrusted, so clamped to [0, kMaxReportedTokens] (missing, negative
// or not a number: 0; 1e300: the cap, which a cost limit then stops at rather than wrapping around).
qint64 tokenCount(const QJsonObject& object, const char* name);
// "HTTP 500: <the start of the body>" for error bodies in no format the provider knows.
QString plainErrorMessage(int status, const QByteArray& body);

// The shared part of the providers' streaming: raw bytes through an SseParser into handle(), the events
// left at the end of the stream, then complete(); collects the text deltas.
class SseStreamHandler : public Provider::StreamHandler
{
public:
    bool feed(const QByteArray& bytes, ProviderError* kind, QString* error) final;
    bool finish(ProviderResponse& response, QString* error) final;
    QString takeTextDelta() final { return std::exchange(m_textDelta, QString()); }

protected:
    // One event; false with *kind and *error on a fatal one.
    virtual bool handle(const SseParser::Event& event, ProviderError* kind, QString* error) = 0;
    // The stream ended: fill the response; false when it ended before a complete message.
    virtual bool complete(ProviderResponse& response, QString* error) = 0;
    void addTextDelta(const QString& text) { m_textDelta += text; }
    static bool malformed(ProviderError* kind, QString* error, const QString& message);

private:
    SseParser m_parser;
    QString m_textDelta;
};

} // namespace ciu::director::wire
