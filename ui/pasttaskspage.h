#pragma once

// The settings page of the remembered past tasks (core/knowledge/taskmemory.h): lists them, forgets one or
// all. Forgetting takes effect at once (it is not a setting that waits for OK).

#include <QString>
#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace ciu::ui {

class PastTasksPage final : public QWidget
{
    Q_OBJECT
public:
    // directory empty: the default location.
    explicit PastTasksPage(const QString& directory = {}, QWidget* parent = nullptr);

    QListWidget* list() const { return m_list; }
    QPushButton* forgetButton() const { return m_forget; }
    QPushButton* clearButton() const { return m_clear; }
    QString statusText() const;

public slots:
    void reload();
    void forgetSelected();
    void clearAll();

private:
    void updateButtons();

    QString m_directory;
    QListWidget* m_list;
    QPushButton* m_forget;
    QPushButton* m_clear;
    QLabel* m_status;
};

} // namespace ciu::ui
