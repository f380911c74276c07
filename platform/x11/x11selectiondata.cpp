#include "platform/x11/x11selectiondata.h"

#include <QBuffer>
#include <QImageReader>

namespace ciu::platform::x11 {

const SelectionItem* SelectionData::find(const QByteArray& target) const
{
    for (const SelectionItem& item : items) {
        if (item.target == target)
            return &item;
    }
    return nullptr;
}

QList<QByteArray> SelectionData::targets() const
{
    QList<QByteArray> names;
    for (const SelectionItem& item : items)
        names << item.target;
    return names;
}

SelectionData selectionDataForText(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    QByteArray latin1;
    latin1.reserve(text.size());
    for (const QChar c : text)
        latin1 += c.unicode() < 0x100 ? char(c.unicode()) : '?';
    SelectionData data;
    data.items = {
        {"UTF8_STRING", "UTF8_STRING", utf8}, {"text/plain;charset=utf-8", "text/plain;charset=utf-8", utf8},
        {"text/plain", "text/plain", utf8},   {"TEXT", "UTF8_STRING", utf8},
        {"STRING", "STRING", latin1},
    };
    return data;
}

SelectionData selectionDataForImage(const QImage& image)
{
    SelectionData data;
    if (image.isNull())
        return data;
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return data;
    data.items = {{"image/png", "image/png", png}};
    return data;
}

std::optional<QByteArray> preferredImageTarget(const QList<QByteArray>& offered)
{
    for (const char* preferred : {"image/png", "image/bmp", "image/x-bmp", "image/jpeg", "image/tiff"}) {
        if (offered.contains(QByteArray(preferred)))
            return QByteArray(preferred);
    }
    // Any other image/* format Qt can read.
    const QList<QByteArray> readable = QImageReader::supportedMimeTypes();
    for (const QByteArray& target : offered) {
        if (target.startsWith("image/") && readable.contains(target))
            return target;
    }
    return std::nullopt;
}

} // namespace ciu::platform::x11
