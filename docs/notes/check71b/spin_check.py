import csv, math, sys
path = sys.argv[1]; etas = [float(x) for x in sys.argv[2].split(',')]; t_switch = float(sys.argv[3]) if len(sys.argv) > 3 else None
rows = list(csv.DictReader(open(path)))
r = 0.01; m = 2500 * 4 / 3 * math.pi * r**3; I = 0.4 * m * r * r
scale = 0.5 * I * 400
worst = 0; worst_bal = 0
for row in rows:
    t = float(row['time']); erot = float(row['rotational'])
    w = math.sqrt(2 * erot / I)
    if t_switch is None or t <= t_switch:
        want = 20 * math.exp(-etas[0] * t / I)
    else:
        want = 20 * math.exp(-etas[0] * t_switch / I - etas[1] * (t - t_switch) / I)
    worst = max(worst, abs(w - want) / 20)
    worst_bal = max(worst_bal, abs(float(row['balance']) - float(rows[0]['balance'])))
last = rows[-1]
print(f"rows {len(rows)}; last t {last['time']} w {math.sqrt(2*float(last['rotational'])/I):.9g} want {want:.9g} rel {math.sqrt(2*float(last['rotational'])/I)/want-1:.2e}")
print(f"max |w - closed form| / w0 = {worst:.2e}; max |balance - balance0| = {worst_bal:.3e} J = {worst_bal/scale:.2e} of E_rot0; dissipated_rolling {last['dissipated_rolling']} J, E_rot lost {scale - float(last['rotational']):.6e} J")
