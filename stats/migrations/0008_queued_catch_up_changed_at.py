from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0007_queued_catch_up"),
    ]

    operations = [
        migrations.AddField(
            model_name="queuedcatchup",
            name="changed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
