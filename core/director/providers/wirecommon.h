#pragma once

#include "core/director/providers/providertypes.h"

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

} // namespace ciu::director::wire
