#pragma once

// What a selection owner offers: one entry per conversion target. Pure; unit-tested.

#include <QByteArray>
#include <QImage>
#include <QList>
#include <QString>

#include <optional>

namespace ciu::platform::x11 {

struct SelectionItem
{
    QByteArray target; // conversion target name ("UTF8_STRING", "image/png")
    QByteArray type;   // type of the reply property
    QByteArray data;
    bool operator==(const SelectionItem&) const = default;
};

struct SelectionData
{
    QList<SelectionItem> items;
    bool isEmpty() const { return items.isEmpty(); }
    const SelectionItem* find(const QByteArray& target) const;
    QList<QByteArray> targets() const;
};

// Text as UTF8_STRING, text/plain;charset=utf-8, text/plain, TEXT and (Latin-1, '?' for the rest) STRING.
SelectionData selectionDataForText(const QString& text);
// An image as image/png. Empty when the image cannot be encoded.
SelectionData selectionDataForImage(const QImage& image);

// Image targets in the order a reader should prefer them, among `offered`.
std::optional<QByteArray> preferredImageTarget(const QList<QByteArray>& offered);

} // namespace ciu::platform::x11
