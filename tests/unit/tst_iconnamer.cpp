// IconNamer on the installed icon themes (adwaita-icon-theme, hicolor-icon-theme): real theme files drawn
// into synthetic screens as a program would draw them (a button frame, a light and a dark look, recoloured
// symbolic icons, scaled icons), glyphs and shapes that are no icon, the theme lookup and bad themes.

#include "core/canvas/iconnamer.h"
#include "core/canvas/localanalyzer.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFont>
#include <QImageReader>
#include <QPainter>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using canvas::IconNamer;

namespace {

struct Look
{
    QColor window;
    QColor face;
    QColor frame;
    QColor symbolic; // what the theme paints symbolic icons with
};

const Look kLight{QColor(0xef, 0xef, 0xef), QColor(0xf6, 0xf6, 0xf6), QColor(0xa0, 0xa0, 0xa0),
                  QColor(0x2e, 0x34, 0x36)};
const Look kDark{QColor(0x2d, 0x2d, 0x2d), QColor(0x35, 0x35, 0x35), QColor(0x1b, 0x1b, 0x1b),
                 QColor(0xee, 0xee, 0xec)};

// A file of the installed Adwaita theme ("24x24/legacy/document-save.png"), found where the system keeps
// icon themes.
QString themeFile(const QString& relative)
{
    for (const QString& base : QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation)) {
        const QString path = base + QStringLiteral("/icons/Adwaita/") + relative;
        if (QFile::exists(path))
            return path;
    }
    return {};
}

QImage readIcon(const QString& relative)
{
    const QString path = themeFile(relative);
    return path.isEmpty() ? QImage() : QImageReader(path).read().convertToFormat(QImage::Format_ARGB32);
}

// A symbolic icon as GTK draws it: its alpha in the theme's foreground colour.
QImage recolour(const QImage& icon, const QColor& colour)
{
    QImage out = icon.convertToFormat(QImage::Format_ARGB32);
    for (int y = 0; y < out.height(); ++y) {
        auto* row = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < out.width(); ++x)
            row[x] = qRgba(colour.red(), colour.green(), colour.blue(), qAlpha(row[x]));
    }
    return out;
}

// A window with one framed tool button at `button`, `paint` drawing its content centred.
QImage screenWithButton(const Look& look, const QRect& button, const std::function<void(QPainter&)>& paint)
{
    QImage screen(240, 120, QImage::Format_RGB32);
    screen.fill(look.window);
    QPainter p(&screen);
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.setPen(look.frame);
    p.setBrush(look.face);
    p.drawRoundedRect(QRectF(button).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    p.translate(button.center() + QPoint(1, 1));
    paint(p);
    return screen;
}

// The zones found, one a line's worth each, for a failure's message.
QString described(const QList<Zone>& zones)
{
    QStringList found;
    for (const Zone& z : zones)
        found << QStringLiteral("%1 \"%2\" (%3) %4,%5 %6x%7")
                     .arg(toString(z.type), z.label, toString(z.labelSource))
                     .arg(z.bounds.x())
                     .arg(z.bounds.y())
                     .arg(z.bounds.width())
                     .arg(z.bounds.height());
    return found.join(QStringLiteral("; "));
}

void drawIcon(QPainter& p, const QImage& icon, double scale = 1)
{
    const QSizeF size = QSizeF(icon.size()) * scale;
    p.drawImage(QRectF(QPointF(-size.width() / 2, -size.height() / 2), size), icon);
}

} // namespace

class TestIconNamer : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void labels_data();
    void labels();
    void themeChain();
    void namesThemeIcons_data();
    void namesThemeIcons();
    void noNameForWhatIsNoIcon_data();
    void noNameForWhatIsNoIcon();
    void ownThemeAndInherits();
    void missingTheme();
    void analyzerNamesToolBarButtons_data();
    void analyzerNamesToolBarButtons();
    void anIconOnAControlsFaceIsNoButton_data();
    void anIconOnAControlsFaceIsNoButton();

private:
    IconNamer m_namer;
};

void TestIconNamer::initTestCase()
{
    QVERIFY2(!themeFile(QStringLiteral("index.theme")).isEmpty(),
             "the Adwaita icon theme is not installed (adwaita-icon-theme, see packaging/install-deps.sh)");
    QVERIFY2(m_namer.load(), qPrintable(m_namer.errorString()));
    qInfo("indexed %d icons, %d pixmaps from %s in %.0f ms", m_namer.iconCount(), m_namer.descriptorCount(),
          qPrintable(m_namer.themeChain().join(QStringLiteral(", "))), m_namer.loadMs());
}

void TestIconNamer::labels_data()
{
    QTest::addColumn<QString>("icon");
    QTest::addColumn<QString>("label");
    QTest::newRow("save") << "document-save"
                          << "Save";
    QTest::newRow("find") << "edit-find"
                          << "Find";
    QTest::newRow("close") << "window-close"
                           << "Close";
    QTest::newRow("symbolic") << "document-save-symbolic"
                              << "Save";
    QTest::newRow("ltr") << "go-previous-symbolic-ltr"
                         << "Back";
    QTest::newRow("two words") << "document-save-as"
                               << "Save As";
    QTest::newRow("not in the table") << "view-paged-symbolic"
                                      << "view paged";
}

void TestIconNamer::labels()
{
    QFETCH(QString, icon);
    QFETCH(QString, label);
    QCOMPARE(IconNamer::labelFor(icon), label);
}

void TestIconNamer::themeChain()
{
    // Adwaita inherits hicolor, the fallback of every theme.
    QCOMPARE(m_namer.themeChain(), (QStringList{QStringLiteral("Adwaita"), QStringLiteral("hicolor")}));
    QVERIFY(m_namer.iconCount() > 100);
}

void TestIconNamer::namesThemeIcons_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("symbolic");
    QTest::addColumn<bool>("dark");
    QTest::addColumn<double>("scale");
    QTest::addColumn<int>("buttonSize");
    QTest::addColumn<QString>("label");
    const QString save = QStringLiteral("24x24/legacy/document-save.png");
    QTest::newRow("save, light") << save << false << false << 1.0 << 32 << "Save";
    QTest::newRow("save, dark") << save << false << true << 1.0 << 32 << "Save";
    QTest::newRow("save, 1.5x") << save << false << false << 1.5 << 44 << "Save";
    QTest::newRow("save, 1.5x dark") << save << false << true << 1.5 << 44 << "Save";
    QTest::newRow("save, 48 px") << QStringLiteral("48x48/legacy/document-save.png") << false << false << 1.0
                                 << 56 << "Save";
    QTest::newRow("save, 48 px at 0.75x, dark")
        << QStringLiteral("48x48/legacy/document-save.png") << false << true << 0.75 << 44 << "Save";
    QTest::newRow("find, light") << QStringLiteral("24x24/legacy/edit-find.png") << false << false << 1.0
                                 << 32 << "Find";
    QTest::newRow("symbolic save, light")
        << QStringLiteral("16x16/actions/document-save-symbolic.symbolic.png") << true << false << 1.0 << 26
        << "Save";
    QTest::newRow("symbolic save, dark")
        << QStringLiteral("16x16/actions/document-save-symbolic.symbolic.png") << true << true << 1.0 << 26
        << "Save";
    QTest::newRow("symbolic find, dark") << QStringLiteral("16x16/actions/edit-find-symbolic.symbolic.png")
                                         << true << true << 1.0 << 26 << "Find";
    QTest::newRow("symbolic close, light") << QStringLiteral("16x16/ui/window-close-symbolic.symbolic.png")
                                           << true << false << 1.0 << 26 << "Close";
    QTest::newRow("symbolic close, 2x dark") << QStringLiteral("16x16/ui/window-close-symbolic.symbolic.png")
                                             << true << true << 2.0 << 44 << "Close";
}

void TestIconNamer::namesThemeIcons()
{
    QFETCH(QString, file);
    QFETCH(bool, symbolic);
    QFETCH(bool, dark);
    QFETCH(double, scale);
    QFETCH(int, buttonSize);
    QFETCH(QString, label);
    const Look look = dark ? kDark : kLight;
    QImage icon = readIcon(file);
    QVERIFY2(!icon.isNull(), qPrintable(file));
    if (symbolic)
        icon = recolour(icon, look.symbolic);
    const QRect button(60, 40, buttonSize, buttonSize);
    const QImage screen = screenWithButton(look, button, [&](QPainter& p) { drawIcon(p, icon, scale); });
    QElapsedTimer timer;
    timer.start();
    const auto match = m_namer.bestMatch(screen, button);
    const double ms = double(timer.nsecsElapsed()) / 1e6; // printed, never asserted
    QVERIFY(match);
    qInfo("%s: %s score %.3f, margin %.3f over %s, distance ratio %.2f, %.2f ms", QTest::currentDataTag(),
          qPrintable(match->iconName), match->score, match->margin, qPrintable(match->runnerUp),
          match->distanceRatio, ms);
    const auto named = m_namer.name(screen, button);
    QVERIFY2(named, "not sure enough");
    QCOMPARE(named->label, label);
    // The icon's own extent inside the button.
    QVERIFY(button.contains(named->iconRect));
    // The same icon boxed tightly (a segmenter that found the icon, not the button).
    const auto tight = m_namer.name(screen, named->iconRect);
    QVERIFY(tight);
    QCOMPARE(tight->label, label);
}

void TestIconNamer::noNameForWhatIsNoIcon_data()
{
    QTest::addColumn<QString>("what");
    QTest::newRow("letter") << "Q";
    QTest::newRow("symbol") << "§";
    QTest::newRow("cyrillic") << "Ж";
    QTest::newRow("random strokes") << "strokes";
    QTest::newRow("flat button") << "";
}

void TestIconNamer::noNameForWhatIsNoIcon()
{
    QFETCH(QString, what);
    const QRect button(60, 40, 32, 32);
    for (const Look& look : {kLight, kDark}) {
        const QImage screen = screenWithButton(look, button, [&](QPainter& p) {
            p.setPen(QPen(look.symbolic, 2));
            if (what == QLatin1String("strokes")) {
                QRandomGenerator random(42); // the same strokes every run
                for (int i = 0; i < 5; ++i)
                    p.drawLine(QPointF(random.bounded(20) - 10, random.bounded(20) - 10),
                               QPointF(random.bounded(20) - 10, random.bounded(20) - 10));
            } else if (!what.isEmpty()) {
                QFont font(QStringLiteral("DejaVu Sans"));
                font.setPixelSize(20);
                p.setFont(font);
                p.drawText(QRect(-16, -16, 32, 32), Qt::AlignCenter, what);
            }
        });
        const auto best = m_namer.bestMatch(screen, button);
        if (best)
            qInfo("%s: best %s score %.3f, margin %.3f over %s", QTest::currentDataTag(),
                  qPrintable(best->iconName), best->score, best->margin, qPrintable(best->runnerUp));
        QVERIFY(!m_namer.name(screen, button));
    }
}

void TestIconNamer::ownThemeAndInherits()
{
    // A theme of one's own: index.theme, a directory per size, Inherits followed to Adwaita.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QDir root(dir.path());
    QVERIFY(root.mkpath(QStringLiteral("Mine/24x24/actions")));
    QFile index(root.filePath(QStringLiteral("Mine/index.theme")));
    QVERIFY(index.open(QIODevice::WriteOnly));
    index.write("[Icon Theme]\nName=Mine\nInherits=Adwaita\nDirectories=24x24/actions\n\n"
                "[24x24/actions]\nSize=24\nContext=Actions\nType=Fixed\n");
    index.close();
    // Its "edit-find" is a checkerboard, like no other icon: the theme's own icon shadows Adwaita's.
    QImage square(24, 24, QImage::Format_ARGB32);
    square.fill(Qt::transparent);
    {
        QPainter p(&square);
        for (int cell = 0; cell < 16; ++cell) {
            if ((cell / 4 + cell % 4) % 2 == 0)
                p.fillRect(QRect(4 + 4 * (cell % 4), 4 + 4 * (cell / 4), 4, 4), Qt::black);
        }
    }
    QVERIFY(square.save(root.filePath(QStringLiteral("Mine/24x24/actions/edit-find.png"))));
    IconNamer::Options options;
    options.themes = {QStringLiteral("Mine")};
    QStringList paths{dir.path()};
    for (const QString& base : QStandardPaths::standardLocations(QStandardPaths::GenericDataLocation))
        paths << base + QStringLiteral("/icons");
    options.searchPaths = paths;
    IconNamer namer(options);
    QVERIFY2(namer.load(), qPrintable(namer.errorString()));
    QCOMPARE(namer.themeChain(),
             (QStringList{QStringLiteral("Mine"), QStringLiteral("Adwaita"), QStringLiteral("hicolor")}));
    const QRect button(60, 40, 32, 32);
    const QImage screen =
        screenWithButton(kLight, button, [&](QPainter& p) { p.drawImage(QPoint(-12, -12), square); });
    const auto named = namer.bestMatch(screen, button);
    QVERIFY(named);
    QCOMPARE(named->iconName, QStringLiteral("edit-find"));
    // Adwaita's save icon is still found through Inherits.
    const QImage save = readIcon(QStringLiteral("24x24/legacy/document-save.png"));
    const QImage saveScreen = screenWithButton(kLight, button, [&](QPainter& p) { drawIcon(p, save); });
    const auto saved = namer.name(saveScreen, button);
    QVERIFY(saved);
    QCOMPARE(saved->label, QStringLiteral("Save"));
}

void TestIconNamer::missingTheme()
{
    QTemporaryDir dir;
    IconNamer::Options options;
    options.themes = {QStringLiteral("NoSuchTheme")};
    options.searchPaths = {dir.path()};
    IconNamer namer(options);
    QVERIFY(!namer.load());
    QVERIFY2(namer.errorString().contains(QStringLiteral("NoSuchTheme")), qPrintable(namer.errorString()));
    // Naming without icons names nothing, and says so once.
    QImage screen(64, 64, QImage::Format_RGB32);
    screen.fill(Qt::white);
    QVERIFY(!namer.name(screen, QRect(10, 10, 32, 32)));
    QVERIFY(namer.isLoaded());
}

void TestIconNamer::analyzerNamesToolBarButtons_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

void TestIconNamer::analyzerNamesToolBarButtons()
{
    // Tier 1 on a tool bar as Qt draws it: flat icon buttons (no frame until hovered), one framed (hovered)
    // button, and a text button beside them; the icons are the theme's own files.
    QFETCH(bool, dark);
    const Look look = dark ? kDark : kLight;
    QImage screen(400, 80, QImage::Format_RGB32);
    screen.fill(look.window);
    QPainter p(&screen);
    // Flat: an arrow the segmenter sees as unreadable ink, a magnifier OCR reads as "Q".
    const std::pair<const char*, const char*> flat[] = {{"24x24/legacy/edit-undo.png", "Undo"},
                                                        {"24x24/legacy/edit-find.png", "Find"}};
    QList<std::pair<QRect, QString>> expected;
    int x = 10;
    for (const auto& [file, label] : flat) {
        const QImage icon = readIcon(QString::fromLatin1(file));
        QVERIFY2(!icon.isNull(), file);
        p.drawImage(QPoint(x + 4, 24), icon);
        expected << std::pair{QRect(x, 20, 32, 32), QString::fromLatin1(label)};
        x += 40;
    }
    // Framed (hovered or a frame style): a full-colour icon, and a symbolic cross OCR reads as "x".
    const std::pair<const char*, const char*> framed[] = {
        {"24x24/legacy/document-save.png", "Save"}, {"16x16/ui/window-close-symbolic.symbolic.png", "Close"}};
    for (const auto& [file, label] : framed) {
        const QRect button(x + 4, 20, 32, 32);
        p.setPen(look.frame);
        p.setBrush(look.face);
        p.drawRoundedRect(QRectF(button).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
        QImage icon = readIcon(QString::fromLatin1(file));
        QVERIFY2(!icon.isNull(), file);
        if (QString::fromLatin1(file).contains(QLatin1String("symbolic")))
            icon = recolour(icon, look.symbolic);
        p.drawImage(button.center() - QPoint(icon.width() / 2 - 1, icon.height() / 2 - 1), icon);
        expected << std::pair{button, QString::fromLatin1(label)};
        x += 44;
    }
    p.end();

    canvas::LocalAnalyzer analyzer;
    const canvas::LocalAnalysisResult result = analyzer.analyze(screen, QPoint(100, 200), {});
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    qInfo("%d icon zones looked at, %d named, %.1f ms (the themes' first load included)",
          result.stats.iconZones, result.stats.iconsNamed, result.stats.iconMs);
    const QString found = described(result.zones);
    for (const auto& [rect, label] : std::as_const(expected)) {
        const QRect root = rect.translated(100, 200);
        const Zone* match = nullptr;
        for (const Zone& z : result.zones) {
            if (root.contains(z.bounds.center()))
                match = &z;
        }
        QVERIFY2(match, qPrintable(label + QStringLiteral(" not found: ") + found));
        QCOMPARE(toString(match->type), QStringLiteral("button"));
        QCOMPARE(match->label, label);
        QCOMPARE(toString(match->labelSource), QStringLiteral("icon"));
    }
}

void TestIconNamer::anIconOnAControlsFaceIsNoButton_data()
{
    QTest::addColumn<bool>("framed");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("label");
    // A button showing its label and an icon: one button, the icon no button of its own.
    QTest::newRow("button with an icon") << true << "24x24/legacy/edit-find.png"
                                         << "Find";
    // A drop-down's arrow.
    QTest::newRow("drop-down arrow") << true << "16x16/ui/pan-down-symbolic.symbolic.png"
                                     << "Expand";
    // The same icons drawn on the window alone are flat buttons, named.
    QTest::newRow("find, flat") << false << "24x24/legacy/edit-find.png"
                                << "Find";
    QTest::newRow("arrow, flat") << false << "16x16/ui/pan-down-symbolic.symbolic.png"
                                 << "Expand";
}

void TestIconNamer::anIconOnAControlsFaceIsNoButton()
{
    QFETCH(bool, framed);
    QFETCH(QString, file);
    QFETCH(QString, label);
    const Look look = kLight;
    QImage screen(400, 80, QImage::Format_RGB32);
    screen.fill(look.window);
    QImage icon = readIcon(file);
    QVERIFY2(!icon.isNull(), qPrintable(file));
    if (file.contains(QLatin1String("symbolic")))
        icon = recolour(icon, look.symbolic);
    // On a push button the icon is left of the label, the two centred; a drop-down's arrow is at its right
    // end, its label at the left.
    const bool arrow = label == QLatin1String("Expand");
    const QString text = QStringLiteral("Pictures");
    const QRect control(40, 20, 180, 34);
    const int textWidth = QFontMetrics(QFont()).horizontalAdvance(text);
    const int iconX = arrow ? control.right() - 8 - icon.width()
                            : control.x() + (control.width() - icon.width() - 6 - textWidth) / 2;
    const QRect iconRect(iconX, control.center().y() - icon.height() / 2 + 1, icon.width(), icon.height());
    {
        QPainter p(&screen);
        if (framed) {
            p.setPen(look.frame);
            p.setBrush(look.face);
            p.drawRoundedRect(QRectF(control).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
            p.setPen(look.symbolic);
            const int textX = arrow ? control.x() + 10 : iconRect.right() + 7;
            p.drawText(QRect(textX, control.y(), textWidth + 4, control.height()), Qt::AlignVCenter, text);
        }
        p.drawImage(iconRect.topLeft(), icon);
    }
    canvas::LocalAnalyzer analyzer;
    const canvas::LocalAnalysisResult result = analyzer.analyze(screen, QPoint(0, 0), {});
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    const QString found = described(result.zones);
    const Zone* named = nullptr;
    const Zone* face = nullptr;
    for (const Zone& z : result.zones) {
        if (z.label == label)
            named = &z;
        if (z.bounds == control)
            face = &z;
    }
    if (framed) {
        QVERIFY2(face && face->type != ZoneType::Static, qPrintable(found));
        QVERIFY2(!named, qPrintable(found));
    } else {
        QVERIFY2(named && named->bounds.contains(iconRect.center()), qPrintable(found));
        QCOMPARE(toString(named->type), QStringLiteral("button"));
    }
}

QTEST_MAIN(TestIconNamer)
#include "tst_iconnamer.moc"
