#include "core/providers/wirecommon.h"

#include <QBuffer>
#include <QImageWriter>
#include <QJsonDocument>

#include <deque>

namespace ciu::director::wire {

QString omittedImagePlaceholder()
{
    return QStringLiteral("[older screenshot omitted]");
}

ScreenshotScaler scalerFor(const ProviderRequest& request)
{
    for (const ToolDefinition& tool : request.tools) {
        if (tool.kind == ToolDefinition::Kind::Computer && tool.screenSize.isValid())
            return ScreenshotScaler(tool.screenSize);
    }
    return {};
}

QList<Message> limitImages(const QList<Message>& messages, int keep)
{
    if (keep < 0)
        return messages;
    QList<Message> out = messages;
    int seen = 0;
    auto visit = [&](ContentBlock& block) {
        if (!block.isImage())
            return;
        if (++seen > keep)
            block = ContentBlock::makeText(omittedImagePlaceholder());
    };
    for (qsizetype m = out.size() - 1; m >= 0; --m) {
        QList<ContentBlock>& blocks = out[m].blocks;
        for (qsizetype b = blocks.size() - 1; b >= 0; --b) {
            ContentBlock& block = blocks[b];
            if (block.type == ContentBlock::Type::ToolResult) {
                for (qsizetype c = block.content.size() - 1; c >= 0; --c)
                    visit(block.content[c]);
            } else {
                visit(block);
            }
        }
    }
    return out;
}

QString sniffMediaType(const QByteArray& data)
{
    if (data.startsWith("\x89PNG"))
        return QStringLiteral("image/png");
    if (data.startsWith("\xFF\xD8"))
        return QStringLiteral("image/jpeg");
    if (data.startsWith("GIF8"))
        return QStringLiteral("image/gif");
    if (data.startsWith("RIFF") && data.mid(8, 4) == "WEBP")
        return QStringLiteral("image/webp");
    return {};
}

namespace {
struct CacheEntry
{
    qint64 key = 0;
    QSize size;
    ProviderRequest::ImageFormat format = ProviderRequest::ImageFormat::Png;
    int quality = 0;
    QByteArray data;
};
// Screenshots stay in the history for several calls: encode each once (per thread, a few entries).
thread_local std::deque<CacheEntry> t_cache;
constexpr size_t kCacheEntries = 8;
} // namespace

std::optional<EncodedImage> encodeImage(const ContentBlock& block, const ScreenshotScaler& scaler,
                                        ProviderRequest::ImageFormat format, int jpegQuality, QString* error)
{
    if (block.image.isNull()) {
        if (block.imageData.isEmpty()) {
            if (error)
                *error = QStringLiteral("an image block has no image");
            return std::nullopt;
        }
        const QString type = block.mediaType.isEmpty() ? sniffMediaType(block.imageData) : block.mediaType;
        if (type.isEmpty()) {
            if (error)
                *error = QStringLiteral("an image block has data of an unknown format");
            return std::nullopt;
        }
        return EncodedImage{block.imageData, type};
    }
    QSize target;
    if (scaler.isScaling() && block.image.size() == scaler.screenSize())
        target = scaler.targetSize();
    else
        target = ScreenshotScaler::fitWithinLimits(block.image.size());
    const QString mediaType = format == ProviderRequest::ImageFormat::Jpeg ? QStringLiteral("image/jpeg")
                                                                           : QStringLiteral("image/png");
    const qint64 key = block.image.cacheKey();
    for (const CacheEntry& e : t_cache) {
        if (e.key == key && e.size == target && e.format == format && e.quality == jpegQuality)
            return EncodedImage{e.data, mediaType};
    }
    const QImage scaled = target == block.image.size()
                              ? block.image
                              : block.image.scaled(target, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format == ProviderRequest::ImageFormat::Jpeg ? "jpeg" : "png");
    if (format == ProviderRequest::ImageFormat::Jpeg)
        writer.setQuality(jpegQuality);
    const QImage toWrite = format == ProviderRequest::ImageFormat::Jpeg && scaled.hasAlphaChannel()
                               ? scaled.convertToFormat(QImage::Format_RGB32)
                               : scaled;
    if (!writer.write(toWrite)) {
        if (error)
            *error = QStringLiteral("cannot encode an image: %1").arg(writer.errorString());
        return std::nullopt;
    }
    t_cache.push_front(CacheEntry{key, target, format, jpegQuality, bytes});
    if (t_cache.size() > kCacheEntries)
        t_cache.pop_back();
    return EncodedImage{bytes, mediaType};
}

std::optional<QJsonObject> parseBodyObject(const QByteArray& body, QString* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("the body is not a JSON object (%1 at offset %2)")
                     .arg(parseError.errorString())
                     .arg(parseError.offset);
        return std::nullopt;
    }
    return doc.object();
}

std::optional<QJsonObject> parseObjectText(const QString& text)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    return doc.object();
}

qint64 tokenCount(const QJsonObject& object, const char* name)
{
    const double v = object.value(QLatin1String(name)).toDouble(0.0);
    if (!(v > 0)) // negative, zero or NaN
        return 0;
    return v >= double(kMaxReportedTokens) ? kMaxReportedTokens : qint64(v);
}

QString plainErrorMessage(int status, const QByteArray& body)
{
    const QString text = QString::fromUtf8(body.left(200)).simplified();
    return text.isEmpty() ? QStringLiteral("HTTP %1").arg(status)
                          : QStringLiteral("HTTP %1: %2").arg(status).arg(text);
}

bool SseStreamHandler::feed(const QByteArray& bytes, ProviderError* kind, QString* error)
{
    for (const SseParser::Event& event : m_parser.feed(bytes)) {
        if (!handle(event, kind, error))
            return false;
    }
    return true;
}

bool SseStreamHandler::finish(ProviderResponse& response, QString* error)
{
    ProviderError kind = ProviderError::None;
    for (const SseParser::Event& event : m_parser.flush()) {
        if (!handle(event, &kind, error))
            return false;
    }
    return complete(response, error);
}

bool SseStreamHandler::malformed(ProviderError* kind, QString* error, const QString& message)
{
    *kind = ProviderError::MalformedResponse;
    *error = message;
    return false;
}

} // namespace ciu::director::wire
