#pragma once

// The settings page of what the knowledge layer keeps per program (window class) under
// $XDG_DATA_HOME/ciu-agent: the learned app schema (shortcuts, named zones, notes), the zone inspector's
// corrections and the remembered window layouts (zone memory), each with its file. Forgets a program or one
// kind of it, after asking; a file that cannot be read is listed by name and never deleted. Forgetting takes
// effect at once (it is not a setting that waits for OK).

#include <QString>
#include <QWidget>

#include <functional>

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace ciu::ui {

class KnowledgePage final : public QWidget
{
    Q_OBJECT
public:
    // The stores' folders; an empty one: its default location.
    struct Directories
    {
        QString shortcuts;
        QString corrections;
        QString zones;
    };
    enum class Kind : quint8
    {
        Schema = 1,  // the learned app schema (ShortcutStore)
        Corrections, // the zone inspector's corrections (CorrectionStore)
        Layouts,     // the remembered window layouts (ZoneMemory)
    };

    explicit KnowledgePage(Directories directories = {}, QWidget* parent = nullptr);

    void setDirectories(const Directories& directories);
    const Directories& directories() const { return m_directories; }
    // Asked before anything is removed, with the question shown to the user: true to go on. Default: a
    // message box.
    void setConfirmation(std::function<bool(const QString& question)> confirm);
    // Opens a folder. Default: the desktop's file manager (QDesktopServices).
    void setFolderOpener(std::function<void(const QString& folder)> open);

    // One top-level item per program (its name in column 0), a child per kind stored (what, in column 1; the
    // file, in column 2); unreadable files as children named by their file, under their program or under
    // "Unreadable files".
    QTreeWidget* tree() const { return m_tree; }
    QPushButton* forgetButton() const { return m_forget; }
    QPushButton* openFolderButton() const { return m_openFolder; }
    QString statusText() const;
    // The top-level item of a program, or null.
    QTreeWidgetItem* programItem(const QString& program) const;
    // A program's item of a kind, or null.
    QTreeWidgetItem* kindItem(const QString& program, Kind kind) const;

public slots:
    void reload();
    // Forgets the selected program (every readable kind) or the selected kind, after confirmation.
    void forgetSelected();
    // Opens the selected file's folder, else the folder of all the stores.
    void openFolder();

signals:
    // After files of a program were removed (the running app drops what it holds of them).
    void forgotten(const QString& program, ciu::ui::KnowledgePage::Kind kind);

private:
    void updateButtons();

    Directories m_directories;
    std::function<bool(const QString&)> m_confirm;
    std::function<void(const QString&)> m_openFolderWith;
    QTreeWidget* m_tree;
    QPushButton* m_forget;
    QPushButton* m_openFolder;
    QLabel* m_status;
};

} // namespace ciu::ui
