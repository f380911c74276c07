// IconNamer, the theme side: finds the installed freedesktop icon themes (index.theme, its Directories and
// Inherits, hicolor last), lists their icons at the indexed sizes, and maps icon names to labels.

#include "core/canvas/iconnamer_p.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QTextStream>

#include <utility>

namespace ciu::canvas {
namespace iconnaming {
namespace {

// index.theme: [group] key=value; comments start with '#'.
QHash<QString, QHash<QString, QString>> readIni(const QString& path)
{
    QHash<QString, QHash<QString, QString>> groups;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return groups;
    QTextStream in(&file);
    QString group;
    while (!in.atEnd()) {
        const QString line = in.readLine().trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        if (line.startsWith(QLatin1Char('[')) && line.endsWith(QLatin1Char(']'))) {
            group = line.mid(1, line.size() - 2);
            continue;
        }
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq > 0)
            groups[group].insert(line.left(eq).trimmed(), line.mid(eq + 1).trimmed());
    }
    return groups;
}

QStringList listValue(const QString& value)
{
    QStringList items;
    for (const QString& item : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        if (!item.trimmed().isEmpty())
            items << item.trimmed();
    }
    return items;
}

} // namespace

QStringList defaultSearchPaths()
{
    QStringList paths;
    const QString home = QDir::homePath();
    const QString dataHome = qEnvironmentVariable("XDG_DATA_HOME", home + QStringLiteral("/.local/share"));
    paths << dataHome + QStringLiteral("/icons") << home + QStringLiteral("/.icons");
    const QString dataDirs = qEnvironmentVariable("XDG_DATA_DIRS");
    const QStringList dirs =
        dataDirs.isEmpty() ? QStringList{QStringLiteral("/usr/local/share"), QStringLiteral("/usr/share")}
                           : dataDirs.split(QLatin1Char(':'), Qt::SkipEmptyParts);
    for (const QString& d : dirs)
        paths << d + QStringLiteral("/icons");
    return paths;
}

ThemeFiles listThemeFiles(const QStringList& themes, const QStringList& searchPaths, const QList<int>& sizes,
                          const QStringList& contexts)
{
    ThemeFiles result;
    // The lookup order: each requested theme, then what it inherits (depth first), hicolor last.
    QStringList pending = themes;
    QSet<QString> seen;
    QHash<QString, QHash<QString, QHash<QString, QString>>> indexes;
    while (!pending.isEmpty()) {
        const QString theme = pending.takeFirst();
        if (seen.contains(theme) || theme == QLatin1String("hicolor"))
            continue;
        seen.insert(theme);
        for (const QString& base : searchPaths) {
            const QString index = base + QLatin1Char('/') + theme + QStringLiteral("/index.theme");
            if (!QFileInfo::exists(index))
                continue;
            indexes.insert(theme, readIni(index));
            result.chain << theme;
            const QStringList inherits = listValue(
                indexes[theme].value(QStringLiteral("Icon Theme")).value(QStringLiteral("Inherits")));
            pending = inherits + pending;
            break;
        }
    }
    for (const QString& base : searchPaths) {
        const QString index = base + QStringLiteral("/hicolor/index.theme");
        if (QFileInfo::exists(index)) {
            indexes.insert(QStringLiteral("hicolor"), readIni(index));
            result.chain << QStringLiteral("hicolor");
            break;
        }
    }

    QSet<QString> taken; // "variant@size": the first theme (and directory) that has it wins
    QSet<QString> withPixmaps;
    std::vector<std::pair<QString, QString>> scalable; // variant, path
    QSet<QString> scalableTaken;
    for (const QString& theme : std::as_const(result.chain)) {
        const auto& ini = indexes[theme];
        const QStringList directories =
            listValue(ini.value(QStringLiteral("Icon Theme")).value(QStringLiteral("Directories")));
        for (const QString& dir : directories) {
            const auto& entry = ini.value(dir);
            if (!contexts.contains(entry.value(QStringLiteral("Context"))))
                continue;
            if (entry.value(QStringLiteral("Scale"), QStringLiteral("1")).toInt() != 1)
                continue;
            const int size = entry.value(QStringLiteral("Size")).toInt();
            const bool isScalable = entry.value(QStringLiteral("Type")) == QLatin1String("Scalable");
            if (!isScalable && !sizes.contains(size))
                continue;
            for (const QString& base : searchPaths) {
                const QDir folder(base + QLatin1Char('/') + theme + QLatin1Char('/') + dir);
                if (!folder.exists())
                    continue;
                const QStringList files = folder.entryList(isScalable ? QStringList{QStringLiteral("*.svg")}
                                                                      : QStringList{QStringLiteral("*.png")},
                                                           QDir::Files | QDir::Readable);
                for (const QString& file : files) {
                    QString variant = file.left(file.lastIndexOf(QLatin1Char('.')));
                    if (variant.endsWith(QLatin1String(".symbolic")))
                        variant.chop(9); // GTK's pre-rendered symbolic PNGs: "name-symbolic.symbolic.png"
                    // Right-to-left mirrors look like the opposite action ("edit-undo-rtl" is a redo arrow).
                    if (variant.contains(QLatin1String("-rtl")))
                        continue;
                    if (isScalable) {
                        if (!scalableTaken.contains(variant)) {
                            scalableTaken.insert(variant);
                            scalable.emplace_back(variant, folder.filePath(file));
                        }
                        continue;
                    }
                    const QString key = variant + QLatin1Char('@') + QString::number(size);
                    if (taken.contains(key))
                        continue;
                    taken.insert(key);
                    withPixmaps.insert(variant);
                    result.files.push_back({variant, folder.filePath(file), size, false});
                }
            }
        }
    }
    // Icons only drawn as SVG: rendered at every indexed size.
    for (const auto& [variant, path] : scalable) {
        if (withPixmaps.contains(variant))
            continue;
        for (const int size : sizes)
            result.files.push_back({variant, path, size, true});
    }
    return result;
}

} // namespace iconnaming

QString IconNamer::baseName(const QString& iconName)
{
    QString name = iconName;
    for (const QLatin1String suffix : {QLatin1String("-symbolic"), QLatin1String("-ltr")}) {
        if (name.endsWith(suffix))
            name.chop(suffix.size());
    }
    if (name.endsWith(QLatin1String("-symbolic")))
        name.chop(9);
    return name;
}

QString IconNamer::labelFor(const QString& iconName)
{
    // Common names of the freedesktop icon naming specification and of GTK's symbolic set, as the
    // buttons that show them are usually labelled.
    static const QHash<QString, QString> labels{
        {QStringLiteral("document-new"), QStringLiteral("New")},
        {QStringLiteral("document-open"), QStringLiteral("Open")},
        {QStringLiteral("document-open-recent"), QStringLiteral("Recent")},
        {QStringLiteral("document-save"), QStringLiteral("Save")},
        {QStringLiteral("document-save-as"), QStringLiteral("Save As")},
        {QStringLiteral("document-print"), QStringLiteral("Print")},
        {QStringLiteral("document-print-preview"), QStringLiteral("Print Preview")},
        {QStringLiteral("document-properties"), QStringLiteral("Properties")},
        {QStringLiteral("document-revert"), QStringLiteral("Revert")},
        {QStringLiteral("document-send"), QStringLiteral("Send")},
        {QStringLiteral("document-edit"), QStringLiteral("Edit")},
        {QStringLiteral("edit-find"), QStringLiteral("Find")},
        {QStringLiteral("edit-find-replace"), QStringLiteral("Replace")},
        {QStringLiteral("edit-copy"), QStringLiteral("Copy")},
        {QStringLiteral("edit-cut"), QStringLiteral("Cut")},
        {QStringLiteral("edit-paste"), QStringLiteral("Paste")},
        {QStringLiteral("edit-undo"), QStringLiteral("Undo")},
        {QStringLiteral("edit-redo"), QStringLiteral("Redo")},
        {QStringLiteral("edit-delete"), QStringLiteral("Delete")},
        {QStringLiteral("edit-clear"), QStringLiteral("Clear")},
        {QStringLiteral("edit-clear-all"), QStringLiteral("Clear All")},
        {QStringLiteral("edit-select-all"), QStringLiteral("Select All")},
        {QStringLiteral("window-close"), QStringLiteral("Close")},
        {QStringLiteral("window-maximize"), QStringLiteral("Maximize")},
        {QStringLiteral("window-minimize"), QStringLiteral("Minimize")},
        {QStringLiteral("window-restore"), QStringLiteral("Restore")},
        {QStringLiteral("window-new"), QStringLiteral("New Window")},
        {QStringLiteral("tab-new"), QStringLiteral("New Tab")},
        {QStringLiteral("folder-new"), QStringLiteral("New Folder")},
        {QStringLiteral("list-add"), QStringLiteral("Add")},
        {QStringLiteral("list-remove"), QStringLiteral("Remove")},
        {QStringLiteral("go-previous"), QStringLiteral("Back")},
        {QStringLiteral("go-next"), QStringLiteral("Forward")},
        {QStringLiteral("go-up"), QStringLiteral("Up")},
        {QStringLiteral("go-down"), QStringLiteral("Down")},
        {QStringLiteral("go-home"), QStringLiteral("Home")},
        {QStringLiteral("go-first"), QStringLiteral("First")},
        {QStringLiteral("go-last"), QStringLiteral("Last")},
        {QStringLiteral("go-top"), QStringLiteral("Top")},
        {QStringLiteral("go-bottom"), QStringLiteral("Bottom")},
        {QStringLiteral("go-jump"), QStringLiteral("Jump")},
        {QStringLiteral("view-refresh"), QStringLiteral("Refresh")},
        {QStringLiteral("view-fullscreen"), QStringLiteral("Fullscreen")},
        {QStringLiteral("view-more"), QStringLiteral("More")},
        {QStringLiteral("view-list"), QStringLiteral("List View")},
        {QStringLiteral("view-grid"), QStringLiteral("Grid View")},
        {QStringLiteral("open-menu"), QStringLiteral("Menu")},
        {QStringLiteral("process-stop"), QStringLiteral("Stop")},
        {QStringLiteral("application-exit"), QStringLiteral("Quit")},
        {QStringLiteral("help-about"), QStringLiteral("About")},
        {QStringLiteral("help-contents"), QStringLiteral("Help")},
        {QStringLiteral("help-browser"), QStringLiteral("Help")},
        {QStringLiteral("help-faq"), QStringLiteral("FAQ")},
        {QStringLiteral("system-search"), QStringLiteral("Search")},
        {QStringLiteral("system-run"), QStringLiteral("Run")},
        {QStringLiteral("system-shutdown"), QStringLiteral("Shut Down")},
        {QStringLiteral("preferences-system"), QStringLiteral("Preferences")},
        {QStringLiteral("emblem-system"), QStringLiteral("Settings")},
        {QStringLiteral("zoom-in"), QStringLiteral("Zoom In")},
        {QStringLiteral("zoom-out"), QStringLiteral("Zoom Out")},
        {QStringLiteral("zoom-original"), QStringLiteral("Original Size")},
        {QStringLiteral("zoom-fit-best"), QStringLiteral("Best Fit")},
        {QStringLiteral("media-playback-start"), QStringLiteral("Play")},
        {QStringLiteral("media-playback-pause"), QStringLiteral("Pause")},
        {QStringLiteral("media-playback-stop"), QStringLiteral("Stop")},
        {QStringLiteral("media-record"), QStringLiteral("Record")},
        {QStringLiteral("media-skip-forward"), QStringLiteral("Next")},
        {QStringLiteral("media-skip-backward"), QStringLiteral("Previous")},
        {QStringLiteral("media-seek-forward"), QStringLiteral("Fast Forward")},
        {QStringLiteral("media-seek-backward"), QStringLiteral("Rewind")},
        {QStringLiteral("format-text-bold"), QStringLiteral("Bold")},
        {QStringLiteral("format-text-italic"), QStringLiteral("Italic")},
        {QStringLiteral("format-text-underline"), QStringLiteral("Underline")},
        {QStringLiteral("format-text-strikethrough"), QStringLiteral("Strikethrough")},
        {QStringLiteral("format-justify-left"), QStringLiteral("Align Left")},
        {QStringLiteral("format-justify-center"), QStringLiteral("Center")},
        {QStringLiteral("format-justify-right"), QStringLiteral("Align Right")},
        {QStringLiteral("format-justify-fill"), QStringLiteral("Justify")},
        {QStringLiteral("format-indent-more"), QStringLiteral("Indent")},
        {QStringLiteral("format-indent-less"), QStringLiteral("Unindent")},
        {QStringLiteral("insert-image"), QStringLiteral("Insert Image")},
        {QStringLiteral("insert-link"), QStringLiteral("Insert Link")},
        {QStringLiteral("insert-text"), QStringLiteral("Insert Text")},
        {QStringLiteral("mail-send"), QStringLiteral("Send")},
        {QStringLiteral("mail-reply-sender"), QStringLiteral("Reply")},
        {QStringLiteral("mail-reply-all"), QStringLiteral("Reply All")},
        {QStringLiteral("mail-forward"), QStringLiteral("Forward")},
        {QStringLiteral("bookmark-new"), QStringLiteral("Bookmark")},
        {QStringLiteral("object-rotate-left"), QStringLiteral("Rotate Left")},
        {QStringLiteral("object-rotate-right"), QStringLiteral("Rotate Right")},
        {QStringLiteral("object-flip-horizontal"), QStringLiteral("Flip Horizontally")},
        {QStringLiteral("object-flip-vertical"), QStringLiteral("Flip Vertically")},
        {QStringLiteral("user-trash"), QStringLiteral("Trash")},
        {QStringLiteral("call-start"), QStringLiteral("Call")},
        {QStringLiteral("call-stop"), QStringLiteral("Hang Up")},
        {QStringLiteral("pan-down"), QStringLiteral("Expand")},
        {QStringLiteral("pan-end"), QStringLiteral("Next")},
        {QStringLiteral("pan-start"), QStringLiteral("Previous")},
        {QStringLiteral("pan-up"), QStringLiteral("Collapse")},
    };
    const QString base = baseName(iconName);
    const auto it = labels.constFind(base);
    if (it != labels.cend())
        return *it;
    return QString(base).replace(QLatin1Char('-'), QLatin1Char(' '));
}

} // namespace ciu::canvas
