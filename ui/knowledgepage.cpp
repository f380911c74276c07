#include "ui/knowledgepage.h"

#include "core/knowledge/correctionstore.h"
#include "core/knowledge/knowledgefiles.h"
#include "core/knowledge/shortcutstore.h"
#include "core/knowledge/zonememory.h"
#include "ui/uilog.h"

#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace ciu::ui {
namespace {

enum Role : int
{
    ProgramRole = Qt::UserRole,
    KindRole,     // int(Kind); 0 on a program's item and on the group of unreadable files
    PathRole,     // the file
    ReadableRole, // false: listed by name, never deleted
};

// One file of a store as the page lists it.
struct Entry
{
    QString program; // empty: the file names no program it can be listed under
    KnowledgePage::Kind kind = KnowledgePage::Kind::Schema;
    QString path;
    bool readable = false;
    QString what; // readable: what it holds; else why it cannot be read
};

QString kindName(KnowledgePage::Kind kind)
{
    switch (kind) {
    case KnowledgePage::Kind::Schema:
        return KnowledgePage::tr("Shortcuts and named zones");
    case KnowledgePage::Kind::Corrections:
        return KnowledgePage::tr("Zone corrections");
    case KnowledgePage::Kind::Layouts:
        return KnowledgePage::tr("Remembered window layouts");
    }
    return {};
}

// What a readable file of `kind` holds (its program in *program), or nullopt with *error.
std::optional<QString> describe(KnowledgePage::Kind kind, const QJsonObject& object, QString* program,
                                QString* error)
{
    switch (kind) {
    case KnowledgePage::Kind::Schema: {
        const auto schema = AppSchema::fromJson(object, error);
        if (!schema)
            return std::nullopt;
        *program = schema->application;
        const auto verified = std::count_if(schema->shortcuts.cbegin(), schema->shortcuts.cend(),
                                            [](const Shortcut& s) { return s.isVerified(); });
        return KnowledgePage::tr("%n shortcut(s) (%1 verified), %2 named zone(s)", nullptr,
                                 int(schema->shortcuts.size()))
            .arg(verified)
            .arg(schema->zones.size());
    }
    case KnowledgePage::Kind::Corrections: {
        const auto set = CorrectionSet::fromJson(object, error);
        if (!set)
            return std::nullopt;
        *program = set->application;
        QString text = KnowledgePage::tr("%n corrected zone(s), %1 removed detection(s)", nullptr,
                                         int(set->zones.size()))
                           .arg(set->suppressed.size());
        if (!set->titlePattern.isEmpty())
            text += KnowledgePage::tr(", windows titled \"%1\"").arg(set->titlePattern);
        return text;
    }
    case KnowledgePage::Kind::Layouts: {
        const auto memory = ProgramMemory::fromJson(object, error);
        if (!memory)
            return std::nullopt;
        *program = memory->program;
        qsizetype zones = 0;
        for (const RememberedLayout& layout : memory->layouts)
            zones += layout.zones.size();
        return KnowledgePage::tr("%n layout(s), %1 zone(s)", nullptr, int(memory->layouts.size())).arg(zones);
    }
    }
    return std::nullopt;
}

QList<Entry> entriesOf(KnowledgePage::Kind kind, const QString& directory)
{
    QList<Entry> entries;
    const QDir dir(directory);
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        Entry e;
        e.kind = kind;
        e.path = dir.filePath(name);
        QString error;
        const auto object = knowledgefiles::readObject(e.path, &error);
        QString program;
        const auto what = object ? describe(kind, *object, &program, &error) : std::nullopt;
        if (object && program.isEmpty()) // a file that names no program is one of none
            program =
                object->value(QLatin1String(kind == KnowledgePage::Kind::Layouts ? "program" : "application"))
                    .toString();
        e.program = program;
        e.readable = what.has_value();
        e.what = what ? *what : error;
        entries << e;
    }
    return entries;
}

} // namespace

KnowledgePage::KnowledgePage(Directories directories, QWidget* parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
    , m_forget(new QPushButton(tr("&Forget…"), this))
    , m_openFolder(new QPushButton(tr("&Open folder"), this))
    , m_status(new QLabel(this))
{
    auto* intro = new QLabel(tr("What the agent keeps about each program: the shortcuts and named zones it "
                                "learned (with the shipped app schemas), your zone corrections, and the "
                                "window layouts it remembers. All plain JSON files. Select a program to "
                                "forget all of it, or one kind."),
                             this);
    intro->setWordWrap(true);
    m_tree->setAccessibleName(tr("Stored knowledge"));
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Program"), tr("Stored"), tr("File")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_forget->setToolTip(tr("Remove the selected program's files, or the selected kind's file"));
    m_openFolder->setToolTip(tr("Open the folder of the selected file, or of all the knowledge files"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_forget);
    buttons->addWidget(m_openFolder);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_tree, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_status);

    m_confirm = [this](const QString& question) {
        return QMessageBox::question(this, tr("Forget"), question) == QMessageBox::Yes;
    };
    m_openFolderWith = [](const QString& folder) { QDesktopServices::openUrl(QUrl::fromLocalFile(folder)); };
    connect(m_forget, &QPushButton::clicked, this, &KnowledgePage::forgetSelected);
    connect(m_openFolder, &QPushButton::clicked, this, &KnowledgePage::openFolder);
    connect(m_tree, &QTreeWidget::itemSelectionChanged, this, &KnowledgePage::updateButtons);
    setDirectories(directories);
}

void KnowledgePage::setDirectories(const Directories& directories)
{
    m_directories = directories;
    if (m_directories.shortcuts.isEmpty())
        m_directories.shortcuts = ShortcutStore::defaultDirectory();
    if (m_directories.corrections.isEmpty())
        m_directories.corrections = CorrectionStore::defaultDirectory();
    if (m_directories.zones.isEmpty())
        m_directories.zones = ZoneMemory::defaultDirectory();
    reload();
}

void KnowledgePage::setConfirmation(std::function<bool(const QString&)> confirm)
{
    m_confirm = std::move(confirm);
}

void KnowledgePage::setFolderOpener(std::function<void(const QString&)> open)
{
    m_openFolderWith = std::move(open);
}

QString KnowledgePage::statusText() const
{
    return m_status->text();
}

QTreeWidgetItem* KnowledgePage::programItem(const QString& program) const
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_tree->topLevelItem(i);
        if (item->data(0, KindRole).toInt() == 0 && item->data(0, ProgramRole).toString() == program &&
            !program.isEmpty())
            return item;
    }
    return nullptr;
}

QTreeWidgetItem* KnowledgePage::kindItem(const QString& program, Kind kind) const
{
    QTreeWidgetItem* parent = programItem(program);
    for (int i = 0; parent && i < parent->childCount(); ++i) {
        if (parent->child(i)->data(0, KindRole).toInt() == int(kind))
            return parent->child(i);
    }
    return nullptr;
}

void KnowledgePage::reload()
{
    QList<Entry> entries = entriesOf(Kind::Schema, m_directories.shortcuts);
    entries << entriesOf(Kind::Corrections, m_directories.corrections);
    entries << entriesOf(Kind::Layouts, m_directories.zones);
    QMap<QString, QList<Entry>> byProgram; // sorted by name
    QList<Entry> orphans;
    int unreadable = 0;
    for (const Entry& e : std::as_const(entries)) {
        unreadable += e.readable ? 0 : 1;
        if (e.program.isEmpty())
            orphans << e;
        else
            byProgram[e.program] << e;
    }
    m_tree->clear();
    const auto addChild = [](QTreeWidgetItem* parent, const Entry& e) {
        auto* item = new QTreeWidgetItem(parent);
        item->setText(0,
                      e.readable ? kindName(e.kind) : tr("Unreadable: %1").arg(QFileInfo(e.path).fileName()));
        item->setText(1, e.what);
        item->setText(2, e.path);
        item->setToolTip(1, e.what);
        item->setData(0, ProgramRole, e.program);
        item->setData(0, KindRole, int(e.kind));
        item->setData(0, PathRole, e.path);
        item->setData(0, ReadableRole, e.readable);
    };
    for (auto it = byProgram.cbegin(); it != byProgram.cend(); ++it) {
        auto* program = new QTreeWidgetItem(m_tree);
        program->setText(0, it.key());
        program->setText(1, tr("%n file(s)", nullptr, int(it.value().size())));
        program->setData(0, ProgramRole, it.key());
        program->setData(0, KindRole, 0);
        for (const Entry& e : it.value())
            addChild(program, e);
    }
    if (!orphans.isEmpty()) {
        auto* group = new QTreeWidgetItem(m_tree);
        group->setText(0, tr("Unreadable files"));
        group->setText(1, tr("left as they are"));
        group->setData(0, KindRole, 0);
        for (const Entry& e : std::as_const(orphans))
            addChild(group, e);
    }
    m_tree->expandAll();
    QString status = byProgram.isEmpty() ? tr("Nothing stored about any program.")
                                         : tr("Knowledge of %n program(s).", nullptr, int(byProgram.size()));
    if (unreadable > 0)
        status += QLatin1Char(' ') +
                  tr("%n file(s) cannot be read: listed, never deleted (fix or remove them by hand).",
                     nullptr, unreadable);
    m_status->setText(status);
    updateButtons();
}

void KnowledgePage::forgetSelected()
{
    const QList<QTreeWidgetItem*> selected = m_tree->selectedItems();
    if (selected.isEmpty())
        return;
    QTreeWidgetItem* item = selected.first();
    const QString program = item->data(0, ProgramRole).toString();
    QList<QTreeWidgetItem*> targets;
    if (item->data(0, KindRole).toInt() == 0) {
        for (int i = 0; i < item->childCount(); ++i)
            targets << item->child(i);
    } else {
        targets << item;
    }
    QStringList files;
    QStringList kept;
    for (const QTreeWidgetItem* t : std::as_const(targets)) {
        if (t->data(0, ReadableRole).toBool())
            files << t->data(0, PathRole).toString();
        else
            kept << QFileInfo(t->data(0, PathRole).toString()).fileName();
    }
    if (files.isEmpty()) {
        m_status->setText(tr("Nothing to forget: an unreadable file is never deleted (%1).")
                              .arg(kept.join(QStringLiteral(", "))));
        return;
    }
    const QString question =
        targets.size() > 1 || item->data(0, KindRole).toInt() == 0
            ? tr("Forget everything stored about %1? These files are deleted:\n%2")
                  .arg(program, files.join(QLatin1Char('\n')))
            : tr("Forget the %1 of %2? This file is deleted:\n%3")
                  .arg(kindName(Kind(item->data(0, KindRole).toInt())).toLower(), program, files.first());
    if (!m_confirm || !m_confirm(question))
        return;
    QStringList removed;
    QStringList errors;
    QList<Kind> kinds;
    for (const QTreeWidgetItem* t : std::as_const(targets)) {
        if (!t->data(0, ReadableRole).toBool())
            continue;
        const QString path = t->data(0, PathRole).toString();
        QFile file(path);
        if (file.remove()) {
            removed << path;
            kinds << Kind(t->data(0, KindRole).toInt());
        } else {
            errors << tr("cannot delete %1: %2").arg(path, file.errorString());
        }
    }
    qCInfo(lcUi) << "forgot" << removed << "of" << program;
    reload();
    QString status = tr("Forgot %n file(s) of %1.", nullptr, int(removed.size())).arg(program);
    if (!kept.isEmpty())
        status += QLatin1Char(' ') + tr("Kept (unreadable): %1.").arg(kept.join(QStringLiteral(", ")));
    if (!errors.isEmpty())
        status += QLatin1Char('\n') + errors.join(QLatin1Char('\n'));
    m_status->setText(status);
    for (const Kind kind : std::as_const(kinds))
        emit forgotten(program, kind);
}

void KnowledgePage::openFolder()
{
    const QList<QTreeWidgetItem*> selected = m_tree->selectedItems();
    const QString path = selected.isEmpty() ? QString() : selected.first()->data(0, PathRole).toString();
    const QString folder =
        path.isEmpty() ? QFileInfo(m_directories.shortcuts).absolutePath() : QFileInfo(path).absolutePath();
    if (m_openFolderWith)
        m_openFolderWith(folder);
}

void KnowledgePage::updateButtons()
{
    const QList<QTreeWidgetItem*> selected = m_tree->selectedItems();
    m_forget->setEnabled(!selected.isEmpty() && !selected.first()->data(0, ProgramRole).toString().isEmpty());
}

} // namespace ciu::ui
