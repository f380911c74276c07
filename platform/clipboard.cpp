#include "platform/clipboard.h"

namespace ciu::platform {

Clipboard::Content Clipboard::save(int timeoutMs)
{
    Content content;
    content.image = image(timeoutMs);
    if (!content.image)
        content.text = text(timeoutMs);
    return content;
}

bool Clipboard::restore(const Content& content)
{
    if (content.image)
        return setImage(*content.image);
    if (content.text)
        return setText(*content.text);
    return setText(QString());
}

} // namespace ciu::platform
