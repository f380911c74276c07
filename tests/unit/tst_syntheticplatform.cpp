#include "platform/inputactions.h"
#include "platform/platformfactory.h"
#include "platform/synthetic/syntheticplatform.h"

#include <QTest>

using namespace ciu::platform;

class TestSyntheticPlatform : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void factoryPicksBackend();
    void factoryRejectsUnknownBackend();
    void sharedSceneAcrossInstances();
    void grabAndDamage();
    void grabInto();
    void clickTogglesAndFocuses();
    void typingAndKeys();
    void clickWithModifiersReleasesThem();
    void dragAndScroll();
    void invalidArguments();
    void clipboardSaveRestore();
    void disconnectGivesErrors();

private:
    std::unique_ptr<Platform> open(const QString& name = QStringLiteral("synthetic:test"));
};

void TestSyntheticPlatform::init()
{
    SyntheticScene::resetAll();
}

std::unique_ptr<Platform> TestSyntheticPlatform::open(const QString& name)
{
    auto result = createPlatform({QStringLiteral("synthetic"), name});
    if (!result.platform)
        qFatal("cannot open the synthetic platform: %s", qPrintable(result.error));
    return std::move(result.platform);
}

void TestSyntheticPlatform::factoryPicksBackend()
{
    qputenv("CIU_PLATFORM", "synthetic");
    auto result = createPlatform({});
    qunsetenv("CIU_PLATFORM");
    QVERIFY(result.platform);
    QCOMPARE(result.platform->backendName(), QStringLiteral("synthetic"));
    QVERIFY(result.platform->capabilities().testFlag(Capability::InputInjection));
}

void TestSyntheticPlatform::factoryRejectsUnknownBackend()
{
    auto result = createPlatform({QStringLiteral("wayland"), {}});
    QVERIFY(!result.platform);
    QVERIFY2(result.error.contains(QStringLiteral("wayland")), qPrintable(result.error));
}

void TestSyntheticPlatform::sharedSceneAcrossInstances()
{
    auto a = open();
    auto b = open();
    a->input().moveTo({40, 50});
    QCOMPARE(b->pointer().position(), std::optional<QPoint>(QPoint(40, 50)));
    auto other = open(QStringLiteral("synthetic:other"));
    QCOMPARE(other->pointer().position(), std::optional<QPoint>(QPoint(0, 0)));
}

void TestSyntheticPlatform::grabAndDamage()
{
    auto p = open();
    auto& scene = static_cast<SyntheticPlatform&>(*p).scene();
    QCOMPARE(p->screen().size(), QSize(1280, 800));
    QCOMPARE(p->screen().monitors().size(), 1);
    QVERIFY(p->screen().monitors().first().primary);
    // First damage report covers the whole screen.
    QCOMPARE(p->screen().takeDamage().boundingRect(), QRect(0, 0, 1280, 800));
    QVERIFY(p->screen().takeDamage().isEmpty());
    scene.fillRect(QRect(100, 100, 50, 20), Qt::red);
    QCOMPARE(p->screen().takeDamage().boundingRect(), QRect(100, 100, 50, 20));
    const QImage image = p->screen().grab(QRect(100, 100, 50, 20));
    QCOMPARE(image.size(), QSize(50, 20));
    QCOMPARE(image.format(), QImage::Format_RGB32);
    QCOMPARE(QColor(image.pixel(10, 10)), QColor(Qt::red));
    // Out-of-screen regions are clipped; fully outside fails with an error.
    QCOMPARE(p->screen().grab(QRect(1270, 790, 50, 50)).size(), QSize(10, 10));
    QVERIFY(p->screen().grab(QRect(5000, 5000, 10, 10)).isNull());
    QVERIFY(!p->screen().errorString().isEmpty());
}

void TestSyntheticPlatform::grabInto()
{
    auto p = open();
    auto& scene = static_cast<SyntheticPlatform&>(*p).scene();
    QImage target(200, 200, QImage::Format_RGB32);
    target.fill(Qt::black);
    scene.fillRect(QRect(110, 110, 20, 20), Qt::green);
    QVERIFY(p->screen().grabInto(target, QPoint(100, 100), QRect(110, 110, 20, 20)));
    QCOMPARE(QColor(target.pixel(15, 15)), QColor(Qt::green));
    QCOMPARE(QColor(target.pixel(5, 5)), QColor(Qt::black)); // outside the region: untouched
}

void TestSyntheticPlatform::clickTogglesAndFocuses()
{
    auto p = open();
    auto& scene = static_cast<SyntheticPlatform&>(*p).scene();
    scene.addWidget({QStringLiteral("ok"), SyntheticScene::WidgetKind::Button, QRect(10, 10, 80, 30),
                     QStringLiteral("OK")});
    scene.addWidget({QStringLiteral("check"), SyntheticScene::WidgetKind::CheckBox, QRect(10, 50, 120, 24),
                     QStringLiteral("Check")});
    InputActions actions(p->input(), p->pointer());
    QVERIFY(actions.clickAt({50, 25}, MouseButton::Left));
    QCOMPARE(scene.widget(QStringLiteral("ok"))->clicks, 1);
    QCOMPARE(scene.focusedWidget(), QStringLiteral("ok"));
    QVERIFY(actions.clickAt({20, 60}, MouseButton::Left, 2));
    QCOMPARE(scene.widget(QStringLiteral("check"))->clicks, 2);
    QCOMPARE(scene.widget(QStringLiteral("check"))->checked, false);
    QVERIFY(actions.clickAt({20, 60}, MouseButton::Left, 3));
    QCOMPARE(scene.widget(QStringLiteral("check"))->checked, true);
    // Right clicks do not activate.
    QVERIFY(actions.clickAt({50, 25}, MouseButton::Right));
    QCOMPARE(scene.widget(QStringLiteral("ok"))->clicks, 1);
}

void TestSyntheticPlatform::typingAndKeys()
{
    auto p = open();
    auto& scene = static_cast<SyntheticPlatform&>(*p).scene();
    scene.addWidget({QStringLiteral("field"), SyntheticScene::WidgetKind::TextField, QRect(10, 10, 200, 30)});
    InputActions actions(p->input(), p->pointer());
    QVERIFY(actions.clickAt({50, 25}, MouseButton::Left));
    QVERIFY(actions.type(QStringLiteral("Grüße, 東京 ✓")));
    QCOMPARE(scene.widget(QStringLiteral("field"))->text, QStringLiteral("Grüße, 東京 ✓"));
    QVERIFY(actions.keys(QStringLiteral("BackSpace BackSpace")));
    QCOMPARE(scene.widget(QStringLiteral("field"))->text, QStringLiteral("Grüße, 東京"));
    QVERIFY(actions.keys(QStringLiteral("shift+x")));
    QCOMPARE(scene.widget(QStringLiteral("field"))->text, QStringLiteral("Grüße, 東京x"));
    // Keys are released in reverse order.
    QStringList keyLog;
    for (const auto& r : scene.inputLog()) {
        if (r.kind == QLatin1String("key"))
            keyLog << r.detail;
    }
    QCOMPARE(keyLog.mid(keyLog.size() - 4),
             (QStringList{QStringLiteral("Shift_L down"), QStringLiteral("x down"), QStringLiteral("x up"),
                          QStringLiteral("Shift_L up")}));
}

void TestSyntheticPlatform::clickWithModifiersReleasesThem()
{
    auto p = open();
    auto& scene = static_cast<SyntheticPlatform&>(*p).scene();
    InputActions actions(p->input(), p->pointer());
    scene.clearInputLog();
    QVERIFY(actions.clickAt({5, 5}, MouseButton::Left, 1, QStringLiteral("ctrl+shift")));
    QStringList log;
    for (const auto& r : scene.inputLog()) {
        if (r.kind != QLatin1String("move"))
            log << r.detail;
    }
    QCOMPARE(log, (QStringList{QStringLiteral("Control_L down"), QStringLiteral("Shift_L down"),
                               QStringLiteral("left down"), QStringLiteral("left up"),
                               QStringLiteral("Shift_L up"), QStringLiteral("Control_L up")}));
}

void TestSyntheticPlatform::dragAndScroll()
{
    auto p = open();
    auto& scene = static_cast<SyntheticPlatform&>(*p).scene();
    InputActions actions(p->input(), p->pointer());
    scene.clearInputLog();
    QVERIFY(actions.drag({10, 10}, {110, 60}));
    const auto log = scene.inputLog();
    QCOMPARE(log.first().detail, QStringLiteral("10,10"));
    QCOMPARE(log.last().detail, QStringLiteral("left up"));
    QCOMPARE(p->pointer().position(), std::optional<QPoint>(QPoint(110, 60)));
    scene.clearInputLog();
    QVERIFY(actions.scrollAt({300, 300}, ScrollDirection::Down, 3));
    int wheels = 0;
    for (const auto& r : scene.inputLog())
        wheels += r.kind == QLatin1String("wheel") && r.detail == QLatin1String("down");
    QCOMPARE(wheels, 3);
}

void TestSyntheticPlatform::invalidArguments()
{
    auto p = open();
    InputActions actions(p->input(), p->pointer());
    QVERIFY(!actions.click(MouseButton::Left, 4));
    QVERIFY(actions.errorString().contains(QStringLiteral("click count")));
    QVERIFY(!actions.scroll(ScrollDirection::Up, 0));
    QVERIFY(!actions.keys(QStringLiteral("ctrl+nosuchkey")));
    QVERIFY(actions.errorString().contains(QStringLiteral("nosuchkey")));
    QVERIFY(!actions.holdKey(QStringLiteral("shift"), -5));
}

void TestSyntheticPlatform::clipboardSaveRestore()
{
    auto p = open();
    QVERIFY(p->clipboard().setText(QStringLiteral("original")));
    const auto saved = p->clipboard().save();
    QVERIFY(p->clipboard().setText(QStringLiteral("temporary")));
    QCOMPARE(p->clipboard().text(), std::optional<QString>(QStringLiteral("temporary")));
    QVERIFY(p->clipboard().restore(saved));
    QCOMPARE(p->clipboard().text(), std::optional<QString>(QStringLiteral("original")));
    QImage image(4, 4, QImage::Format_RGB32);
    image.fill(Qt::blue);
    QVERIFY(p->clipboard().setImage(image));
    QCOMPARE(p->clipboard().image()->pixel(1, 1), image.pixel(1, 1));
}

void TestSyntheticPlatform::disconnectGivesErrors()
{
    auto p = open();
    static_cast<SyntheticPlatform&>(*p).scene().setConnected(false);
    QVERIFY(!p->isConnected());
    QVERIFY(!p->pointer().position());
    QVERIFY(p->screen().grab().isNull());
    InputActions actions(p->input(), p->pointer());
    QVERIFY(!actions.clickAt({1, 1}, MouseButton::Left));
    QVERIFY2(actions.errorString().contains(QStringLiteral("gone")), qPrintable(actions.errorString()));
}

QTEST_MAIN(TestSyntheticPlatform)
#include "tst_syntheticplatform.moc"
