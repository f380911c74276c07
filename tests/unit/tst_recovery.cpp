#include "core/director/recovery.h"
#include "core/director/verification.h"

#include <QTest>

using namespace ciu;

Q_DECLARE_METATYPE(ciu::Action::Type)
Q_DECLARE_METATYPE(ciu::Expectation::Kind)
Q_DECLARE_METATYPE(ciu::RecoveryController::Step::Kind)
Q_DECLARE_METATYPE(ciu::RecoveryController::Resolution::Kind)

// The recovery ladder without a Director: which recovery the RecoveryController names for which failure, when
// it gives up, and what it reports once a recovery move is back; and the ActionVerifier's checks that pick
// the failure (brush lost, wrong zone, a menu that opens).
class TestRecovery : public QObject
{
    Q_OBJECT
private slots:
    void canReexecute_data();
    void canReexecute();
    void nextStep_data();
    void nextStep();
    void reexecutesOnlyOnce();
    void recalibratesOnlyOnce();
    void afterRecovery_data();
    void afterRecovery();
    void recoveryMoveTimeoutGivesUp();
    void resetForgetsPendingRecovery();
    void brushLost_data();
    void brushLost();
    void wrongZone_data();
    void wrongZone();
    void opensMenuOrList();
};

namespace {

using Step = RecoveryController::Step;
using Resolution = RecoveryController::Resolution;

Zone zone(const QString& id, QRect bounds, ZoneType type = ZoneType::Button)
{
    Zone z;
    z.id = id;
    z.bounds = bounds;
    z.type = type;
    return z;
}

ActionFlight flightOf(Action::Type type, std::optional<ZoneType> targetType = ZoneType::Button,
                      Expectation::Kind expect = Expectation::Kind::AnyChange)
{
    ActionFlight f;
    f.sent.type = type;
    f.sent.zoneId = QStringLiteral("z1");
    f.proposed.action = f.sent;
    f.proposed.expect.kind = expect;
    if (targetType)
        f.target = zone(QStringLiteral("z1"), QRect(100, 100, 40, 20), *targetType);
    return f;
}

// The failures the Director reports to the controller.
enum class Failure : quint8
{
    Timeout = 1,
    Verification,
    BrushLost,
    WrongZone,
};

Step stepFor(RecoveryController& controller, Failure failure, const ActionFlight& flight)
{
    switch (failure) {
    case Failure::Timeout:
        return controller.afterTimeout(flight);
    case Failure::Verification:
        return controller.afterFailedVerification(flight);
    case Failure::BrushLost:
        return controller.afterBrushLost(flight, QPoint(960, 540));
    case Failure::WrongZone:
        return controller.afterWrongZone(flight, QStringLiteral("landed in z2"));
    }
    return {};
}

} // namespace

Q_DECLARE_METATYPE(Failure)

void TestRecovery::canReexecute_data()
{
    QTest::addColumn<Action::Type>("type");
    QTest::addColumn<Expectation::Kind>("expect");
    QTest::addColumn<bool>("checkBox");
    QTest::addColumn<bool>("expected");
    using T = Action::Type;
    using E = Expectation::Kind;
    QTest::newRow("click") << T::LeftClick << E::AnyChange << false << true;
    QTest::newRow("double click") << T::DoubleClick << E::AnyChange << false << true;
    QTest::newRow("scroll") << T::Scroll << E::None << false << true;
    QTest::newRow("move") << T::MouseMove << E::None << false << true;
    QTest::newRow("type text") << T::TypeText << E::AnyChange << false << false;
    QTest::newRow("paste") << T::Paste << E::AnyChange << false << false;
    QTest::newRow("cut") << T::Cut << E::AnyChange << false << false;
    QTest::newRow("key") << T::Key << E::AnyChange << false << false;
    QTest::newRow("hold key") << T::HoldKey << E::None << false << false;
    QTest::newRow("clipboard write") << T::ClipboardWrite << E::None << false << false;
    QTest::newRow("launch") << T::Launch << E::AnyChange << false << false;
    QTest::newRow("click expecting checked") << T::LeftClick << E::StateChecked << false << false;
    QTest::newRow("click expecting unchecked") << T::LeftClick << E::StateUnchecked << false << false;
    QTest::newRow("click on a check box") << T::LeftClick << E::AnyChange << true << false;
}

void TestRecovery::canReexecute()
{
    QFETCH(Action::Type, type);
    QFETCH(Expectation::Kind, expect);
    QFETCH(bool, checkBox);
    QFETCH(bool, expected);
    const ActionFlight f = flightOf(type, checkBox ? ZoneType::CheckBox : ZoneType::Button, expect);
    QCOMPARE(RecoveryController::canReexecute(f), expected);
}

void TestRecovery::nextStep_data()
{
    QTest::addColumn<Failure>("failure");
    QTest::addColumn<Action::Type>("type");
    QTest::addColumn<bool>("hasTarget");
    QTest::addColumn<bool>("used"); // the rung for this failure was used on this action already
    QTest::addColumn<bool>("undoable");
    QTest::addColumn<bool>("recoveryMove");
    QTest::addColumn<Step::Kind>("expected");
    QTest::addColumn<QString>("key");  // Undo: the key pressed
    QTest::addColumn<QPoint>("point"); // Recalibrate: where the brush is moved
    using T = Action::Type;
    using K = Step::Kind;
    const QPoint targetCentre = QRect(100, 100, 40, 20).center();
    // Timeout / no change: re-execute once, then re-plan.
    QTest::newRow("timeout click") << Failure::Timeout << T::LeftClick << true << false << true << false
                                   << K::Reexecute << QString() << QPoint();
    QTest::newRow("timeout click again") << Failure::Timeout << T::LeftClick << true << true << true << false
                                         << K::GiveUp << QString() << QPoint();
    QTest::newRow("timeout typing") << Failure::Timeout << T::TypeText << true << false << true << false
                                    << K::GiveUp << QString() << QPoint();
    QTest::newRow("timeout launch") << Failure::Timeout << T::Launch << false << false << true << false
                                    << K::GiveUp << QString() << QPoint();
    QTest::newRow("timeout of a recovery move") << Failure::Timeout << T::MouseMove << false << false << true
                                                << true << K::GiveUp << QString() << QPoint();
    QTest::newRow("verification click") << Failure::Verification << T::LeftClick << true << false << true
                                        << false << K::Reexecute << QString() << QPoint();
    QTest::newRow("verification click again") << Failure::Verification << T::LeftClick << true << true << true
                                              << false << K::GiveUp << QString() << QPoint();
    QTest::newRow("verification key") << Failure::Verification << T::Key << false << false << true << false
                                      << K::GiveUp << QString() << QPoint();
    // Brush lost: recalibrate at the target (else the screen centre), restart; lost again: give up.
    QTest::newRow("brush lost on a zone") << Failure::BrushLost << T::LeftClick << true << false << true
                                          << false << K::Recalibrate << QString() << targetCentre;
    QTest::newRow("brush lost without a zone") << Failure::BrushLost << T::LeftClick << false << false << true
                                               << false << K::Recalibrate << QString() << QPoint(960, 540);
    QTest::newRow("brush lost typing") << Failure::BrushLost << T::TypeText << true << false << true << false
                                       << K::Recalibrate << QString() << targetCentre;
    QTest::newRow("brush lost again") << Failure::BrushLost << T::LeftClick << true << true << true << false
                                      << K::GiveUp << QString() << QPoint();
    // Wrong zone: Escape once after a click, then re-plan; typing is never undone with ctrl+z (re-planned).
    QTest::newRow("wrong zone click") << Failure::WrongZone << T::LeftClick << true << false << true << false
                                      << K::Undo << QStringLiteral("Escape") << QPoint();
    QTest::newRow("wrong zone typing") << Failure::WrongZone << T::TypeText << false << false << true << false
                                       << K::GiveUp << QString() << QPoint();
    QTest::newRow("wrong zone undone already") << Failure::WrongZone << T::LeftClick << true << true << true
                                               << false << K::GiveUp << QString() << QPoint();
    QTest::newRow("wrong zone not undoable") << Failure::WrongZone << T::LeftClick << true << false << false
                                             << false << K::GiveUp << QString() << QPoint();
}

void TestRecovery::nextStep()
{
    QFETCH(Failure, failure);
    QFETCH(Action::Type, type);
    QFETCH(bool, hasTarget);
    QFETCH(bool, used);
    QFETCH(bool, undoable);
    QFETCH(bool, recoveryMove);
    QFETCH(Step::Kind, expected);
    QFETCH(QString, key);
    QFETCH(QPoint, point);

    ActionFlight f = flightOf(type, hasTarget ? std::optional<ZoneType>(ZoneType::Button) : std::nullopt);
    f.proposed.undoable = undoable;
    f.recovery = recoveryMove;
    f.reexecuted = used && (failure == Failure::Timeout || failure == Failure::Verification);
    f.recalibrated = used && failure == Failure::BrushLost;
    f.undone = used && failure == Failure::WrongZone;

    RecoveryController controller;
    const Step step = stepFor(controller, failure, f);
    QCOMPARE(int(step.kind), int(expected));
    switch (expected) {
    case Step::Kind::GiveUp:
        QVERIFY(!controller.isRecovering());
        break;
    case Step::Kind::Reexecute:
        QVERIFY(!controller.isRecovering());
        QVERIFY(step.flight.reexecuted);
        QCOMPARE(int(step.flight.sent.type), int(type));
        QVERIFY(!step.flight.recovery);
        break;
    case Step::Kind::Recalibrate:
        QVERIFY(controller.isRecovering());
        QVERIFY(step.flight.recovery);
        QCOMPARE(int(step.flight.sent.type), int(Action::Type::MouseMove));
        QCOMPARE(step.flight.sent.point.value_or(QPoint(-1, -1)), point);
        break;
    case Step::Kind::Undo:
        QVERIFY(controller.isRecovering());
        QVERIFY(step.flight.recovery);
        QCOMPARE(int(step.flight.sent.type), int(Action::Type::Key));
        QCOMPARE(step.flight.sent.text, key);
        break;
    }
}

void TestRecovery::reexecutesOnlyOnce()
{
    RecoveryController controller;
    const Step first = controller.afterTimeout(flightOf(Action::Type::LeftClick));
    QCOMPARE(int(first.kind), int(Step::Kind::Reexecute));
    // The re-executed action times out too (or its change does not show): re-plan.
    QCOMPARE(int(controller.afterTimeout(first.flight).kind), int(Step::Kind::GiveUp));
    QCOMPARE(int(controller.afterFailedVerification(first.flight).kind), int(Step::Kind::GiveUp));
}

void TestRecovery::recalibratesOnlyOnce()
{
    RecoveryController controller;
    const ActionFlight click = flightOf(Action::Type::LeftClick);
    QCOMPARE(int(controller.afterBrushLost(click, QPoint(1, 1)).kind), int(Step::Kind::Recalibrate));
    ActionResult moved;
    moved.success = true;
    const Resolution restart = controller.afterRecovery(moved);
    QCOMPARE(int(restart.kind), int(Resolution::Kind::Restart));
    QVERIFY(restart.original.recalibrated);
    QCOMPARE(int(restart.original.sent.type), int(Action::Type::LeftClick));
    // The restarted action loses the brush again: give up.
    QCOMPARE(int(controller.afterBrushLost(restart.original, QPoint(1, 1)).kind), int(Step::Kind::GiveUp));
    QVERIFY(!controller.isRecovering());
}

void TestRecovery::afterRecovery_data()
{
    QTest::addColumn<Failure>("failure"); // 0: no recovery pending
    QTest::addColumn<bool>("moveSucceeded");
    QTest::addColumn<Resolution::Kind>("expected");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("error");
    QTest::newRow("nothing pending") << Failure{} << true << Resolution::Kind::Proceed << QString()
                                     << QString();
    QTest::newRow("recalibrated") << Failure::BrushLost << true << Resolution::Kind::Restart << QString()
                                  << QString();
    QTest::newRow("recalibration failed")
        << Failure::BrushLost << false << Resolution::Kind::Fail
        << QStringLiteral("recalibration failed: no pointer") << QStringLiteral("brush lost");
    QTest::newRow("undone") << Failure::WrongZone << true << Resolution::Kind::Fail
                            << QStringLiteral("landed in z2; undone, re-planning")
                            << QStringLiteral("landed in z2");
    QTest::newRow("undo failed") << Failure::WrongZone << false << Resolution::Kind::Fail
                                 << QStringLiteral("landed in z2; undone, re-planning")
                                 << QStringLiteral("landed in z2");
}

void TestRecovery::afterRecovery()
{
    QFETCH(Failure, failure);
    QFETCH(bool, moveSucceeded);
    QFETCH(Resolution::Kind, expected);
    QFETCH(QString, message);
    QFETCH(QString, error);

    RecoveryController controller;
    if (failure != Failure{})
        stepFor(controller, failure, flightOf(Action::Type::LeftClick));
    ActionResult result;
    result.success = moveSucceeded;
    if (!moveSucceeded)
        result.error = QStringLiteral("no pointer");
    const Resolution r = controller.afterRecovery(result);
    QCOMPARE(int(r.kind), int(expected));
    QCOMPARE(r.message, message);
    QCOMPARE(r.error, error);
    QVERIFY(!controller.isRecovering());
    if (expected != Resolution::Kind::Proceed)
        QCOMPARE(int(r.original.sent.type), int(Action::Type::LeftClick));
    // Once resolved, a second result finds nothing pending.
    QCOMPARE(int(controller.afterRecovery(result).kind), int(Resolution::Kind::Proceed));
}

void TestRecovery::recoveryMoveTimeoutGivesUp()
{
    RecoveryController controller;
    const Step undo = controller.afterWrongZone(flightOf(Action::Type::LeftClick), QStringLiteral("wrong"));
    QCOMPARE(int(undo.kind), int(Step::Kind::Undo));
    QVERIFY(controller.isRecovering());
    QCOMPARE(int(controller.afterTimeout(undo.flight).kind), int(Step::Kind::GiveUp));
    QVERIFY(!controller.isRecovering());
    QCOMPARE(int(controller.afterRecovery(ActionResult()).kind), int(Resolution::Kind::Proceed));
}

void TestRecovery::resetForgetsPendingRecovery()
{
    RecoveryController controller;
    controller.afterBrushLost(flightOf(Action::Type::LeftClick), QPoint());
    QVERIFY(controller.isRecovering());
    controller.reset();
    QVERIFY(!controller.isRecovering());
    QCOMPARE(int(controller.afterRecovery(ActionResult()).kind), int(Resolution::Kind::Proceed));
}

void TestRecovery::brushLost_data()
{
    QTest::addColumn<QString>("error");
    QTest::addColumn<bool>("lostEvent");
    QTest::addColumn<bool>("expected");
    QTest::newRow("fine") << QString() << false << false;
    QTest::newRow("other error") << QStringLiteral("timeout") << false << false;
    QTest::newRow("error text") << QStringLiteral("Brush lost at (3, 4)") << false << true;
    QTest::newRow("error code") << QStringLiteral("brush_lost") << false << true;
    QTest::newRow("event") << QString() << true << true;
}

void TestRecovery::brushLost()
{
    QFETCH(QString, error);
    QFETCH(bool, lostEvent);
    QFETCH(bool, expected);
    ActionResult result;
    result.error = error;
    QList<SpatialEvent> events;
    SpatialEvent hover;
    hover.kind = SpatialEvent::Kind::ZoneHover;
    events.append(hover);
    if (lostEvent) {
        SpatialEvent lost;
        lost.kind = SpatialEvent::Kind::BrushLost;
        events.append(lost);
    }
    QCOMPARE(ActionVerifier::brushLost(result, events), expected);
}

void TestRecovery::wrongZone_data()
{
    QTest::addColumn<QString>("clickedZone"); // a ZoneClick event's zone (empty: none)
    QTest::addColumn<QPoint>("clickPoint");
    QTest::addColumn<QPoint>("pointUsed");
    QTest::addColumn<QString>("expected");
    // The map: z1 (100,100 40x20) is the target, z1c its caption inside it, z2 elsewhere.
    QTest::newRow("landed on the target")
        << QStringLiteral("z1") << QPoint(120, 110) << QPoint(120, 110) << QString();
    QTest::newRow("landed on the caption")
        << QStringLiteral("z1c") << QPoint(150, 150) << QPoint(120, 110) << QString();
    QTest::newRow("clicked another zone")
        << QStringLiteral("z2") << QPoint(310, 310) << QPoint(120, 110) << QStringLiteral("z2");
    QTest::newRow("pointer elsewhere, on a zone")
        << QString() << QPoint() << QPoint(310, 310) << QStringLiteral("z2");
    QTest::newRow("pointer elsewhere, on nothing")
        << QString() << QPoint() << QPoint(500, 500) << QStringLiteral("(500, 500)");
    QTest::newRow("pointer just outside (tolerance)")
        << QString() << QPoint() << QPoint(142, 121) << QString();
}

void TestRecovery::wrongZone()
{
    QFETCH(QString, clickedZone);
    QFETCH(QPoint, clickPoint);
    QFETCH(QPoint, pointUsed);
    QFETCH(QString, expected);
    const Zone target = zone(QStringLiteral("z1"), QRect(100, 100, 40, 20));
    const auto map = std::make_shared<const ZoneMap>(
        1, 0, QSize(1920, 1080),
        QList<Zone>{target, zone(QStringLiteral("z1c"), QRect(105, 105, 20, 10), ZoneType::Static),
                    zone(QStringLiteral("z2"), QRect(300, 300, 40, 20))});
    ActionFlight f = flightOf(Action::Type::LeftClick);
    f.target = target;
    f.mapBefore = map;
    QList<SpatialEvent> events;
    if (!clickedZone.isEmpty()) {
        SpatialEvent click;
        click.kind = SpatialEvent::Kind::ZoneClick;
        click.zoneId = clickedZone;
        click.point = clickPoint;
        events.append(click);
    }
    ActionResult result;
    result.success = true;
    result.pointUsed = pointUsed;
    QCOMPARE(ActionVerifier::wrongZone(f, result, events), expected);
}

void TestRecovery::opensMenuOrList()
{
    QVERIFY(ActionVerifier::opensMenuOrList(flightOf(Action::Type::LeftClick, ZoneType::Dropdown)));
    QVERIFY(ActionVerifier::opensMenuOrList(flightOf(Action::Type::LeftClick, ZoneType::MenuItem)));
    QVERIFY(ActionVerifier::opensMenuOrList(flightOf(Action::Type::RightClick, ZoneType::Button)));
    QVERIFY(!ActionVerifier::opensMenuOrList(flightOf(Action::Type::LeftClick, ZoneType::Button)));
    QVERIFY(!ActionVerifier::opensMenuOrList(flightOf(Action::Type::RightClick, std::nullopt)));
}

QTEST_GUILESS_MAIN(TestRecovery)
#include "tst_recovery.moc"
