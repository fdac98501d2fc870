"""Store the Open311 service code on the reports filed without one (the web
form and staff entry named none): the code the Open311 list prints and filters
on, intake.service_code.service_code_expression."""

from django.db import migrations


def store_codes(apps, schema_editor):
    from intake.service_code import service_code_expression

    Report = apps.get_model("cases", "Report")
    PollutantCategory = apps.get_model("cases", "PollutantCategory")
    Report.objects.filter(service_code="").update(
        service_code=service_code_expression(PollutantCategory)
    )


class Migration(migrations.Migration):
    dependencies = [("cases", "0019_documents_of_the_boards_hearings")]

    operations = [migrations.RunPython(store_codes, migrations.RunPython.noop)]
