#pragma once

#include <QImage>
#include <QString>

#include <optional>

namespace ciu::platform {

// The CLIPBOARD selection.
class Clipboard
{
public:
    struct Content
    {
        std::optional<QString> text;
        std::optional<QImage> image;
        bool isEmpty() const { return !text && !image; }
    };

    virtual ~Clipboard() = default;
    virtual std::optional<QString> text(int timeoutMs = 1000) = 0;
    virtual std::optional<QImage> image(int timeoutMs = 1000) = 0;
    // Takes ownership of the clipboard and serves the content until someone else takes it or this
    // object is destroyed.
    virtual bool setText(const QString& text) = 0;
    virtual bool setImage(const QImage& image) = 0;

    // Snapshot and restore, for operations that must leave the user's clipboard as it was.
    Content save(int timeoutMs = 1000);
    bool restore(const Content& content);

    virtual QString errorString() const = 0;
};

} // namespace ciu::platform
